/**
 * '... is typing' in the browser: the stream's ephemeral `typing` event (lib/messages/typing.ts)
 * kept per conversation under a live key while its thread is shown, each typist dropped
 * TYPING_SHOWN_MS after their last signal or when their message arrives (./live.ts); and the
 * composer's side, which says so at most every TYPING_SEND_EVERY_MS. Listed in
 * lib/registry/live-client.ts.
 */
import "client-only";
import { useCallback, useEffect, useRef } from "react";
import type { LiveClientFeature } from "@/lib/live/client/stream";
import { push, useLive } from "@/lib/live/client/use-live";
import { nextExpiry, stillTyping, typingDue, withTypist, type Typist, type TypingSignal } from "../typing-view";
import { sendTyping } from "./api";

/** Outside the "messages" keys: nothing loads it, only the stream's events change it. */
export const typingKey = (conversationId: string) => `typing:${conversationId}`;

const NOBODY: Typist[] = [];
const loadNobody = async () => NOBODY;

export const typingLiveClient: LiveClientFeature = {
  feeds: [],
  events: {},
  ephemeral: {
    typing(data) {
      const signal = data as TypingSignal;
      const now = Date.now();
      push<Typist[]>(typingKey(signal.conversationId), (typists) => withTypist(stillTyping(typists, now), signal, now));
    },
  },
};

/** Who is typing in the conversation now (never the viewer: the server sends nobody their own). */
export function useTypists(conversationId: string): Typist[] {
  const key = typingKey(conversationId);
  const state = useLive(key, loadNobody, { initial: NOBODY });
  const typists = state.status === "ready" ? state.value : NOBODY;
  useEffect(() => {
    const expiry = nextExpiry(typists);
    if (expiry === null) return;
    const timer = setTimeout(() => push<Typist[]>(key, (current) => stillTyping(current, Date.now())), Math.max(0, expiry - Date.now()));
    return () => clearTimeout(timer);
  }, [key, typists]);
  return typists;
}

/**
 * The composer's signal: `typed()` on each change of its words tells the others at most every
 * TYPING_SEND_EVERY_MS; `sent()` after a message, so the next words tell them at once.
 */
export function useTypingSignal(conversationId: string): { typed(): void; sent(): void } {
  const lastSentAt = useRef<number | null>(null);
  const typed = useCallback(() => {
    const now = Date.now();
    if (!typingDue(lastSentAt.current, now)) return;
    lastSentAt.current = now;
    // A passing state: a refusal (ended, over the limit, offline) is not worth a word on screen.
    sendTyping(conversationId).catch(() => {});
  }, [conversationId]);
  const sent = useCallback(() => {
    lastSentAt.current = null;
  }, []);
  return { typed, sent };
}
