/**
 * Messaging's half of the live stream in the browser (the server's: lib/messages/live.ts and the
 * connection kind of lib/connections/live.ts, whose changes show in messaging's lists), listed in
 * lib/registry/live-client.ts.
 */
import "client-only";
import { invalidate, liveState, push } from "@/lib/live/client/use-live";
import type { LiveClientFeature } from "@/lib/live/client/stream";
import {
  isNewMessage,
  withErased,
  withHeardMessage,
  withReadPosition,
  type Message,
  type ReadPosition,
  type ThreadValue,
} from "../display";
import { withoutTypist, type Typist } from "../typing-view";
import { INBOX_KEY, MESSAGES_KEY, REQUESTS_KEY, threadKey, UNREAD_MESSAGES_KEY } from "./api";
import { typingKey } from "./typing";

type Changed = { conversationId?: string | null };

export const messagesLiveClient: LiveClientFeature = {
  feeds: [MESSAGES_KEY],
  counts: { messages: UNREAD_MESSAGES_KEY },
  events: {
    message(data) {
      // The message as the thread shows it (lib/messages/live.ts), new, edited or reacted to: an
      // open thread replaces its copy or adds a new one (withHeardMessage); the inbox's row (its
      // unread count) loads again.
      const message = data as Message;
      const key = threadKey(message.conversationId);
      const shown = liveState<ThreadValue>(key);
      const arrived = shown?.status === "ready" && isNewMessage(shown.value, message);
      push<ThreadValue>(key, (thread) => withHeardMessage(thread, message));
      // A new message's author has stopped typing: their words are here (an edit or a reaction says nothing of it).
      if (arrived) push<Typist[]>(typingKey(message.conversationId), (typists) => withoutTypist(typists, message.author.userId));
      invalidate(INBOX_KEY);
    },
    read(data) {
      // A person's read position as the thread shows it: 'Seen by' follows without a load. A
      // reader the open thread does not know (a partner who joined since it loaded) loads it again.
      const position = data as ReadPosition & { conversationId: string };
      const key = threadKey(position.conversationId);
      const shown = liveState<ThreadValue>(key);
      if (shown?.status === "ready" && !shown.value.conversation.readPositions.some((p) => p.userId === position.userId)) invalidate(key);
      else push<ThreadValue>(key, (thread) => withReadPosition(thread, position));
      invalidate(INBOX_KEY);
    },
    "message-deleted"(data) {
      // The message erased (lib/messages/live.ts): an open thread shows it so wherever it was
      // loaded from, 'Load older' too, and its quotes say so; the inbox's last line loads again.
      const erased = data as Message;
      push<ThreadValue>(threadKey(erased.conversationId), (thread) => withErased(thread, erased));
      invalidate(INBOX_KEY);
    },
    connection(data) {
      const conversation = (data as Changed).conversationId;
      if (conversation) invalidate(threadKey(conversation));
      invalidate(REQUESTS_KEY);
      invalidate(INBOX_KEY);
    },
  },
};
