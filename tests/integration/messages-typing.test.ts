import { count } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { POST as typingRoute } from "@/app/api/conversations/[id]/typing/route";
import { getDb } from "@/db/client";
import { liveEvents } from "@/db/schema";
import { createListener, postgresSource, type LiveListener } from "@/lib/live/listener";
import { publishEphemeral } from "@/lib/live/publish";
import { liveStream } from "@/lib/live/sse";
import { MESSAGE_LIMITS } from "@/lib/messages/rules";
import { TYPING } from "@/lib/messages/typing";
import { LIVE_REGISTRY } from "@/lib/registry/live";
import { browserSession, call } from "../support/api";
import type { Headers, Person } from "../support/forum";
import { named, openStream, readStream, type OpenStream } from "../support/live";
import { block, connected, messagingCouple } from "../support/messages";
import { onPostgres } from "../support/test-database";

/**
 * '... is typing' (POST /api/conversations/{id}/typing): an ephemeral live kind, sent over the
 * stream to the conversation's other members and stored nowhere. Runs on Postgres, and on the
 * embedded database's listener when Postgres is away.
 */

const settle = (ms = 400) => new Promise((resolve) => setTimeout(resolve, ms));
const typing = (id: string, headers: Headers) =>
  call(typingRoute, "POST", `/api/conversations/${encodeURIComponent(id)}/typing`, { headers, params: { id } });

async function liveRowCount() {
  const db = await getDb();
  const [row] = await db.select({ rows: count() }).from(liveEvents);
  return row!.rows;
}

async function streamOf(person: Person): Promise<OpenStream> {
  const { stream } = await openStream({ cookie: person.headers.cookie! });
  await stream.waitFor((events) => events.length >= 1);
  return stream;
}

describe("POST /api/conversations/{id}/typing", () => {
  it("tells the other three on their open streams, without an id, and nobody else; nothing is stored", async () => {
    const { one, two, conversationId } = await connected();
    const stranger = await messagingCouple();
    const typist = one.a;
    const streams = {
      typist: await streamOf(typist),
      partner: await streamOf(one.b),
      otherA: await streamOf(two.a),
      otherB: await streamOf(two.b),
      stranger: await streamOf(stranger.a),
    };
    // The typist on a second device: their own signal never comes back to them.
    const second = await browserSession(typist.userId);
    const { stream: typistElsewhere } = await openStream({ cookie: second.cookie });
    try {
      await typistElsewhere.waitFor((events) => events.length >= 1);
      const rowsBefore = await liveRowCount();

      const answer = await typing(conversationId, typist.headers);
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ data: { typing: true } });

      for (const stream of [streams.partner, streams.otherA, streams.otherB]) {
        const [event] = await stream.waitFor((events) => named(events, "typing").length === 1).then((events) => named(events, "typing"));
        expect(event!.data).toEqual({ conversationId, userId: typist.userId, firstName: typist.firstName });
        // No id: the resume position never moves for it.
        expect(Number.isNaN(event!.id)).toBe(true);
      }
      await settle();
      for (const stream of [streams.typist, typistElsewhere, streams.stranger]) expect(named(stream.events, "typing")).toEqual([]);
      expect(await liveRowCount()).toBe(rowsBefore);
    } finally {
      [...Object.values(streams), typistElsewhere].forEach((stream) => stream.close());
    }
  });

  it("checks membership before it forwards: a message naming someone outside the conversation reaches no one", async () => {
    const { one, conversationId } = await connected();
    const stranger = await messagingCouple();
    const stream = await streamOf(stranger.a);
    try {
      const db = await getDb();
      await publishEphemeral(db, TYPING, { to: [stranger.a.userId], subjectId: conversationId, payload: { userId: one.a.userId } });
      await settle();
      expect(named(stream.events, "typing")).toEqual([]);
    } finally {
      stream.close();
    }
  });

  it("refuses a non-member, an ended conversation, a call without its CSRF token and bad input, never with a 5xx", async () => {
    const { one, two, conversationId } = await connected();
    const stranger = await messagingCouple();
    expect((await typing(conversationId, stranger.a.headers)).status).toBe(404);
    expect((await typing(conversationId, { cookie: one.a.headers.cookie! })).status).toBe(403);
    expect((await typing(conversationId, {})).status).toBe(401);
    for (const bad of ["not-an-id", "", "'; drop table messages; --", "x".repeat(5_000)]) {
      const refused = await typing(bad, one.a.headers);
      expect(refused.status).toBe(400);
    }

    const stream = await streamOf(two.a);
    try {
      await block(one.coupleId, two.b.headers);
      const rowsBefore = await liveRowCount();
      const ended = await typing(conversationId, one.a.headers);
      expect(ended.status).toBe(403);
      expect(ended.json.error.code).toBe("CONVERSATION_ENDED");
      await settle();
      expect(named(stream.events, "typing")).toEqual([]);
      expect(await liveRowCount()).toBe(rowsBefore);
    } finally {
      stream.close();
    }
  });
});

describe("typing's limit", () => {
  it("holds under calls at once: of 60 in parallel, exactly the minute's limit answer 200, the rest 429", async () => {
    const { one, conversationId } = await connected();
    const answers = await Promise.all(Array.from({ length: 60 }, () => typing(conversationId, one.a.headers)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(MESSAGE_LIMITS.typingPerMinute.limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60 - MESSAGE_LIMITS.typingPerMinute.limit);
  });
});

describe("typing across instances", () => {
  const listeners: LiveListener[] = [];
  afterAll(() => Promise.all(listeners.map((listener) => listener.close())));

  it.skipIf(!onPostgres())("reaches the others' streams on two instances (a listener each)", async () => {
    const { one, two, conversationId } = await connected();
    const [first, second] = [
      createListener(postgresSource(process.env.DATABASE_URL!)),
      createListener(postgresSource(process.env.DATABASE_URL!)),
    ];
    listeners.push(first, second);
    await Promise.all([first.ready(), second.ready()]);
    const db = await getDb();
    const direct = async (person: Person, listener: LiveListener) => {
      const session = await browserSession(person.userId);
      const abort = new AbortController();
      const response = liveStream({
        db,
        userId: person.userId,
        sessionId: session.sid,
        registry: LIVE_REGISTRY,
        resumeFrom: null,
        lifetimeMs: 60_000,
        listener,
        signal: abort.signal,
      });
      const stream = readStream(response, abort);
      await stream.waitFor((events) => events.length >= 1);
      return stream;
    };
    const streams = [await direct(two.a, first), await direct(two.b, second)];
    try {
      expect((await typing(conversationId, one.b.headers)).status).toBe(200);
      for (const stream of streams) {
        await stream.waitFor((events) => named(events, "typing").length === 1);
        expect(named(stream.events, "typing")[0]!.data).toMatchObject({ userId: one.b.userId });
      }
    } finally {
      streams.forEach((stream) => stream.close());
    }
  });
});
