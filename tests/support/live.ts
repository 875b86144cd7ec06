/** Reading the live stream in tests: server-sent events parsed as they arrive. */
import { NextRequest } from "next/server";
import { GET as streamRoute } from "@/app/api/stream/route";
import { getDb } from "@/db/client";
import { transaction } from "@/db/transaction";
import { conversations, messages } from "@/db/schema";
import { publishLive } from "@/lib/live/publish";
import { HEARTBEAT_EVENT } from "@/lib/live/rules";
import { MESSAGE } from "@/lib/messages/live";
import { freshAddress } from "./api";
import { joinAsPartnerB, withCouple } from "./couples";

export type StreamEvent = { id: number; event: string; data: unknown };

export type OpenStream = {
  events: StreamEvent[];
  /** Heartbeat events seen (HEARTBEAT_EVENT: kept apart from `events`). */
  heartbeats: number;
  /** Resolves once the stream has ended (by the server or by `close`). */
  ended: Promise<void>;
  /** Waits until `count` events arrived (or `predicate` holds), else fails after `timeoutMs`. */
  waitFor(predicate: (events: StreamEvent[]) => boolean, timeoutMs?: number): Promise<StreamEvent[]>;
  close(): void;
};

/** Parses a Response's server-sent events as they arrive. */
export function readStream(response: Response, abort?: AbortController): OpenStream {
  const events: StreamEvent[] = [];
  let heartbeats = 0;
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((wake) => wake());
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const ended = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields = Object.fromEntries(
            block
              .split("\n")
              .filter((line) => !line.startsWith(":"))
              .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
          );
          if (fields.event === HEARTBEAT_EVENT) heartbeats++;
          else if (fields.event) events.push({ id: Number(fields.id), event: fields.event, data: JSON.parse(fields.data ?? "null") });
        }
        notify();
      }
    } catch {
      // Aborted by the test.
    } finally {
      notify();
    }
  })();
  let done = false;
  void ended.then(() => (done = true));
  return {
    events,
    get heartbeats() {
      return heartbeats;
    },
    ended,
    async waitFor(predicate, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(events)) {
        if (done) throw new Error(`the stream ended before the events arrived: ${JSON.stringify(events)}`);
        if (Date.now() > deadline) throw new Error(`timed out waiting for events; got ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, 100);
          waiters.add(wake);
        });
      }
      return events;
    },
    close() {
      abort?.abort();
      void reader.cancel().catch(() => {});
    },
  };
}

/** Opens GET /api/stream through its route handler, as Next.js would. */
export async function openStream(headers: Record<string, string>, lastEventId?: number | string, query = "") {
  const abort = new AbortController();
  const request = new NextRequest(new URL(`http://localhost:3000/api/stream${query}`), {
    headers: {
      "x-forwarded-for": freshAddress(),
      ...headers,
      ...(lastEventId === undefined ? {} : { "last-event-id": String(lastEventId) }),
    },
    signal: abort.signal,
  });
  const response = await streamRoute(request, { params: Promise.resolve({} as never) });
  return { response, stream: readStream(response, abort) };
}

/** The events after the opening one, named `name`. */
export const named = (events: StreamEvent[], name: string) => events.filter((event) => event.event === name);

/** Two couples, Ana & Rui and Leo & Mia (four people), in one conversation. */
export async function conversationOfTwo() {
  const ana = await withCouple();
  const rui = await joinAsPartnerB(ana.coupleId);
  const leo = await withCouple();
  const mia = await joinAsPartnerB(leo.coupleId);
  const [low, high] = [ana.coupleId, leo.coupleId].sort();
  const db = await getDb();
  const [conversation] = await db
    .insert(conversations)
    .values({ coupleLowId: low, coupleHighId: high })
    .returning({ id: conversations.id });
  return { ana, rui, leo, mia, conversationId: conversation!.id, coupleIds: { ana: ana.coupleId, leo: leo.coupleId } };
}

/** A message sent as messaging sends one: the row, and a live row for each person named. */
export async function send(conversationId: string, author: { user: { id: string }; coupleId?: string }, body: string, to: string[]) {
  const db = await getDb();
  return transaction(db, async (tx) => {
    const [message] = await tx
      .insert(messages)
      .values({ conversationId, authorUserId: author.user.id, authorCoupleId: author.coupleId, body })
      .returning({ id: messages.id });
    await publishLive(
      tx,
      to.map((userId) => ({ userId, kind: MESSAGE, subjectId: message!.id })),
    );
    return message!.id;
  });
}
