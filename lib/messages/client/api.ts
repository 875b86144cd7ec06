/**
 * The browser's calls to the messaging API (connection requests, the inbox, threads), through
 * the one transport (lib/transport/client.ts), and the live keys (lib/live/client/use-live.ts) that
 * keep the screens current: a write here invalidates what it changed, so every screen follows.
 */
import "client-only";
import { api, ApiError, refusedFor } from "@/lib/transport/client";
import { uploadForm } from "@/lib/transport/upload";
import { invalidate } from "@/lib/live/client/use-live";
import type { KeysetPage } from "@/lib/pagination/page";
import type { ReactionKind } from "@/lib/reactions/rules";
import type { ConnectionRequest, Conversation, InboxRow, Message } from "../display";

/** The live keys: "messages" is every one of them. */
export const MESSAGES_KEY = "messages";
export const UNREAD_MESSAGES_KEY = `${MESSAGES_KEY}:unread`;
export const INBOX_KEY = `${MESSAGES_KEY}:inbox`;
export const REQUESTS_KEY = `${MESSAGES_KEY}:requests`;
export const threadKey = (conversationId: string) => `${MESSAGES_KEY}:thread:${conversationId}`;

const path = (id: string) => encodeURIComponent(id);

/** Says hello; answers the spam rule's message when the request was held ('Your requests are being reviewed'), else null. */
export async function sendConnectionRequest(coupleId: string, note: string): Promise<string | null> {
  const answer = await api<{ data: { status: string; message?: string } }>("/api/connections", {
    method: "POST",
    body: { coupleId, note },
  });
  invalidate(MESSAGES_KEY);
  return answer.data.status === "held" ? (answer.data.message ?? null) : null;
}

/** A page of the hellos waiting, with how many wait in all (`total`: the 'Requests (n)' tab). */
export type RequestsPage = KeysetPage<ConnectionRequest> & { total: number };
export const fetchIncomingRequests = (cursor: string | null, signal?: AbortSignal) =>
  api<RequestsPage>(`/api/connections?box=incoming${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { signal });

export type AcceptAnswer = { status: "accepted"; conversationId: string } | { status: "pending"; waitingFor: string };

export async function acceptRequest(id: string): Promise<AcceptAnswer> {
  const { data } = await api<{ data: AcceptAnswer }>(`/api/connections/${path(id)}/accept`, { method: "POST" });
  invalidate(MESSAGES_KEY);
  return data;
}

export async function declineRequest(id: string): Promise<void> {
  await api(`/api/connections/${path(id)}/decline`, { method: "POST" });
  invalidate(MESSAGES_KEY);
}

export type InboxPage = KeysetPage<InboxRow>;
export const fetchInbox = (cursor: string | null, signal?: AbortSignal) =>
  api<InboxPage>(`/api/conversations${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`, { signal });

export const fetchConversation = (id: string, signal?: AbortSignal) =>
  api<{ data: Conversation }>(`/api/conversations/${path(id)}`, { signal }).then((body) => body.data);

export type MessagePage = { data: Message[]; pagination: { hasMore: boolean } };
export function fetchMessages(id: string, page: { before?: string; limit?: number }, signal?: AbortSignal): Promise<MessagePage> {
  const query = new URLSearchParams();
  if (page.before) query.set("before", page.before);
  if (page.limit) query.set("limit", String(page.limit));
  return api<MessagePage>(`/api/conversations/${path(id)}/messages?${query}`, { signal });
}

/** A message; `clientKey`, the composer's for it: sent again under it, a message that arrived is answered, not sent twice. */
export async function sendMessage(
  id: string,
  message: { body: string; photoUrl?: string; replyToId?: string; clientKey?: string },
): Promise<Message> {
  const { data } = await api<{ data: Message }>(`/api/conversations/${path(id)}/messages`, { method: "POST", body: message });
  invalidate(INBOX_KEY);
  return data;
}

/** Its author's new words, within the edit window: the message as all four now see it. */
export async function editMessage(id: string, body: string): Promise<Message> {
  const { data } = await api<{ data: Message }>(`/api/messages/${path(id)}`, { method: "PATCH", body: { body } });
  return data;
}

/** One of the five reactions on or off: the message with its reactions now. */
export async function reactToMessage(id: string, kind: ReactionKind, on: boolean): Promise<Message> {
  const { data } = await api<{ data: Message }>(`/api/messages/${path(id)}/reactions/${kind}`, { method: on ? "PUT" : "DELETE" });
  return data;
}

export async function deleteMessage(id: string): Promise<void> {
  await api(`/api/messages/${path(id)}`, { method: "DELETE" });
  invalidate(INBOX_KEY);
}

/** Per conversation, the refused read position's sending again once the server's limit lets it through (markRead). */
const readsRefused = new Map<string, ReturnType<typeof setTimeout>>();

/**
 * Marks this conversation read up to a message for the caller; the badge and the inbox follow. A
 * position the server's limit refused (429) was still seen: the newest one asked for is sent again
 * once the wait is over, as the reader may sit still at the bottom of a quiet conversation until then.
 */
export async function markRead(conversationId: string, upTo: string): Promise<void> {
  const readPath = `/api/conversations/${path(conversationId)}/read`;
  clearTimeout(readsRefused.get(conversationId));
  readsRefused.delete(conversationId);
  try {
    await api(readPath, { method: "POST", body: { upTo } });
  } catch (failure) {
    const wait = refusedFor("POST", readPath);
    if (wait > 0)
      readsRefused.set(
        conversationId,
        setTimeout(() => {
          readsRefused.delete(conversationId);
          markRead(conversationId, upTo).catch(() => {
            // Still unread: the thread marks it again as messages come, the tab is shown or the reader scrolls down.
          });
        }, wait),
      );
    throw failure;
  }
  invalidate(UNREAD_MESSAGES_KEY);
  invalidate(INBOX_KEY);
}

/** The navigation's number: a 429 counts as 0 until the next poll, like the bell's. */
export async function fetchUnreadMessages(signal?: AbortSignal): Promise<number> {
  try {
    const body = await api<{ data: { unread_count: number } }>("/api/messages/unread-count", { signal, retries: 2 });
    return body.data.unread_count;
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) return 0;
    throw error;
  }
}

/** One photo, uploaded before its message is sent (multipart field `photo`); answers its URL. */
export async function uploadMessagePhoto(file: File, onProgress?: (fraction: number) => void): Promise<string> {
  const form = new FormData();
  form.set("photo", file);
  const { data } = await uploadForm<{ data: { url: string } }>("/api/messages/photos", form, { onProgress });
  return data.url;
}

/** 'Mute' or back; done or not (refused, or no answer: it may have been done), the thread is loaded again, so its button says what the server holds. */
export async function setMuted(conversationId: string, muted: boolean): Promise<void> {
  try {
    await api(`/api/conversations/${path(conversationId)}/mute`, { method: muted ? "POST" : "DELETE" });
  } finally {
    invalidate(threadKey(conversationId));
  }
}

/** Tells the conversation's other members the caller is typing (never stored; best effort). */
export async function sendTyping(conversationId: string): Promise<void> {
  await api(`/api/conversations/${path(conversationId)}/typing`, { method: "POST" });
}
