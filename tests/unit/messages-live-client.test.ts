import { afterEach, describe, expect, it, vi } from "vitest";
import { liveState, subscribeLive } from "@/lib/live/client/use-live";
import { threadKey } from "@/lib/messages/client/api";
import { messagesLiveClient } from "@/lib/messages/client/live";
import { typingKey } from "@/lib/messages/client/typing";
import type { Message, ThreadValue } from "@/lib/messages/display";
import type { Typist } from "@/lib/messages/typing-view";

const ana = { userId: "u-ana", firstName: "Ana", coupleId: "c-2", coupleName: "Ana & Rui" };

const message = (id: string, createdAt: string, more: Partial<Message> = {}): Message => ({
  id,
  conversationId: "k",
  body: `text ${id}`,
  photoUrl: null,
  author: ana,
  createdAt,
  editedAt: null,
  deleted: false,
  replyTo: null,
  reactions: [],
  ...more,
});

const unsubscribes: (() => void)[] = [];
afterEach(() => {
  unsubscribes.splice(0).forEach((unsubscribe) => unsubscribe());
  vi.unstubAllGlobals();
});

/** An open thread holding its newest page (older ones left to 'Load older'), and Ana shown typing, on a fake visible page. */
function openThread(messages: Message[]) {
  vi.stubGlobal("document", Object.assign(new EventTarget(), { visibilityState: "visible" }));
  vi.stubGlobal("window", new EventTarget());
  const thread = { conversation: { readPositions: [] }, messages, hasMore: true } as unknown as ThreadValue;
  const typing: Typist[] = [{ userId: ana.userId, firstName: ana.firstName, until: Date.now() + 60_000 }];
  const never = () => new Promise<never>(() => {});
  unsubscribes.push(
    subscribeLive(threadKey("k"), never, { initial: thread }, () => {}),
    subscribeLive(typingKey("k"), never, { initial: typing }, () => {}),
  );
  const shown = <T>(key: string) => {
    const state = liveState<T>(key);
    if (state?.status !== "ready") throw new Error(`${key} is not shown`);
    return state.value;
  };
  return { thread: () => shown<ThreadValue>(threadKey("k")), typists: () => shown<Typist[]>(typingKey("k")) };
}

describe("a message event in an open thread", () => {
  it("replaces a message shown, adds only a new one, and never one older than those loaded", () => {
    const open = openThread([message("c", "2026-01-01T10:02:00Z"), message("d", "2026-01-01T10:03:00Z")]);
    const reacted = (m: Message) => ({ ...m, reactions: [{ kind: "heart" as const, count: 1, names: ["Rui"], mine: false }] });

    // A reaction to a message before the loaded page: 'Load older' still asks before 'c', and Ana is still typing.
    messagesLiveClient.events.message!(reacted(message("a", "2026-01-01T10:00:00Z")));
    expect(open.thread().messages.map((m) => m.id)).toEqual(["c", "d"]);
    expect(open.typists()).toHaveLength(1);

    // A reaction to one shown replaces its copy, and is no arrival either.
    messagesLiveClient.events.message!(reacted(message("c", "2026-01-01T10:02:00Z")));
    expect(open.thread().messages.map((m) => [m.id, m.reactions.length])).toEqual([
      ["c", 1],
      ["d", 0],
    ]);
    expect(open.typists()).toHaveLength(1);

    // Her new message is added at the bottom: her words are here, so she no longer shows as typing.
    messagesLiveClient.events.message!(message("e", "2026-01-01T10:04:00Z"));
    expect(open.thread().messages.map((m) => m.id)).toEqual(["c", "d", "e"]);
    expect(open.typists()).toEqual([]);
  });
});
