import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { transaction } from "@/db/transaction";
import { couples, liveEvents, liveSequences, sessions } from "@/db/schema";
import { createListener, postgresSource, type LiveListener } from "@/lib/live/listener";
import { publishLive } from "@/lib/live/publish";
import { liveStream } from "@/lib/live/sse";
import { NOTIFICATION } from "@/lib/notifications/live";
import { LIVE_REGISTRY } from "@/lib/registry/live";
import { SAFETY_REACTIONS } from "@/lib/registry/safety";
import { runShutdown } from "@/lib/shutdown";
import { blockCouple, unblockCouple } from "@/lib/safety/blocking";
import { createNotification, markRead } from "@/lib/notifications/service";
import { removeMessage } from "@/lib/messages/service";
import { browserSession, createUser, freshAddress } from "../support/api";
import { withCouple } from "../support/couples";
import { connected, talk } from "../support/messages";
import { conversationOfTwo, named, openStream, readStream, send, type StreamEvent } from "../support/live";
import { NextRequest } from "next/server";
import { GET as streamRoute } from "@/app/api/stream/route";
import { onPostgres } from "../support/test-database";

const settle = (ms = 300) => new Promise((resolve) => setTimeout(resolve, ms));

async function person() {
  const user = await createUser();
  const session = await browserSession(user.id);
  return { user, session, headers: { cookie: session.cookie } };
}

const notify = (userId: string, title = "Ana replied", extra: Partial<Parameters<typeof createNotification>[1]> = {}) =>
  getDb().then((db) => transaction(db, (tx) => createNotification(tx, { userId, type: "reply", title, message: "Lovely", ...extra })));

/** Appends `count` live rows for the person straight in the table (as `count` writes would), in one statement. */
async function appendRows(userId: string, count: number, kind: "notification" | "connection" = "connection") {
  const db = await getDb();
  await transaction(db, async (tx) => {
    const [row] = await tx
      .insert(liveSequences)
      .values({ userId, lastSeq: count })
      .onConflictDoUpdate({ target: liveSequences.userId, set: { lastSeq: sql`${liveSequences.lastSeq} + ${count}` } })
      .returning({ last: liveSequences.lastSeq });
    const first = row!.last - count + 1;
    await tx.execute(
      sql`insert into live_events (user_id, seq, kind) select ${userId}, s, ${kind} from generate_series(${first}::bigint, ${row!.last}::bigint) s`,
    );
  });
}

const ids = (events: StreamEvent[]) => events.map((event) => event.id);
const strictlyIncreasing = (values: number[]) => values.every((value, i) => i === 0 || value > values[i - 1]!);

describe("GET /api/stream", () => {
  it("refuses a caller who is not signed in", async () => {
    const { response } = await openStream({});
    expect(response.status).toBe(401);
  });

  it("opens with the caller's counts at their newest id, as an unbuffered event stream", async () => {
    const ana = await person();
    await notify(ana.user.id);
    const { response, stream } = await openStream(ana.headers);
    try {
      expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-cache, no-transform");
      const [first] = await stream.waitFor((events) => events.length >= 1);
      // One notification: its row (1) and the unread row after it (2).
      expect(first).toEqual({ id: 2, event: "unread", data: { notifications: 1, messages: 0 } });
    } finally {
      stream.close();
    }
  });

  it("sends a page rendered for another person nothing but 'account', and ends (someone else signed in in another tab)", async () => {
    const [ana, rui] = [await person(), await person()];
    await notify(ana.user.id);
    for (const as of [rui.user.id, "not-an-id"]) {
      const { response, stream } = await openStream(ana.headers, undefined, `?as=${as}`);
      expect(response.status).toBe(200);
      await stream.ended;
      expect(stream.events.map(({ event, data }) => ({ event, data }))).toEqual([{ event: "account", data: {} }]);
    }
    // The page's own person, named in any case, streams as ever.
    const { stream } = await openStream(ana.headers, undefined, `?as=${ana.user.id.toUpperCase()}`);
    try {
      expect((await stream.waitFor((events) => events.length >= 1))[0]).toMatchObject({ event: "unread", data: { notifications: 1 } });
    } finally {
      stream.close();
    }
  });

  it("sends a new notification to its recipient's every open stream, and nothing to anyone else", async () => {
    const [ana, fifth] = [await person(), await person()];
    const second = await browserSession(ana.user.id);
    const streams = [await openStream(ana.headers), await openStream({ cookie: second.cookie }), await openStream(fifth.headers)];
    try {
      await Promise.all(streams.map(({ stream }) => stream.waitFor((events) => events.length >= 1)));
      await notify(ana.user.id, "Rui mentioned you");
      for (const { stream } of streams.slice(0, 2)) {
        await stream.waitFor((events) => named(events, "unread").length >= 2);
        expect(named(stream.events, "notification")).toEqual([
          { id: 1, event: "notification", data: { unread_count: 1, newest: expect.objectContaining({ title: "Rui mentioned you" }) } },
        ]);
        expect(stream.events.at(-1)).toEqual({ id: 2, event: "unread", data: { notifications: 1, messages: 0 } });
      }
      await settle();
      expect(streams[2]!.stream.events).toEqual([{ id: 0, event: "unread", data: { notifications: 0, messages: 0 } }]);
    } finally {
      streams.forEach(({ stream }) => stream.close());
    }
  });

  it("sends a message to the four partners of its conversation, and nothing to a fifth person, a partner who left or a blocked couple", async () => {
    const { ana, rui, leo, mia, conversationId, coupleIds } = await conversationOfTwo();
    const fifth = await person();
    const people = { ana, rui, leo, mia, fifth };
    const streams = Object.fromEntries(
      await Promise.all(
        Object.entries(people).map(async ([name, who]) => [name, (await openStream({ cookie: who.headers.cookie! })).stream] as const),
      ),
    );
    const everyone = Object.values(people).map((who) => who.user.id);
    const bodies = (name: string) => named(streams[name]!.events, "message").map((event) => (event.data as { body: string }).body);
    try {
      await Promise.all(Object.values(streams).map((stream) => stream.waitFor((events) => events.length >= 1)));
      // Written for the fifth person too: what reaches a stream is decided when it is sent.
      await send(conversationId, { user: ana.user, coupleId: coupleIds.ana }, "Dinner on Friday?", everyone);
      for (const name of ["ana", "rui", "leo", "mia"]) {
        await streams[name]!.waitFor((events) => named(events, "message").length === 1);
        expect(named(streams[name]!.events, "message")[0]!.data).toMatchObject({
          conversationId,
          body: "Dinner on Friday?",
          deleted: false,
          author: { userId: ana.user.id, firstName: "Ada", coupleId: coupleIds.ana },
        });
      }

      const db = await getDb();
      await db.update(couples).set({ partner2Id: null }).where(eq(couples.id, coupleIds.ana));
      await send(conversationId, { user: leo.user, coupleId: coupleIds.leo }, "Yes! Eight?", everyone);
      for (const name of ["ana", "leo", "mia"]) await streams[name]!.waitFor((events) => named(events, "message").length === 2);

      await blockCouple(db, { userId: leo.user.id, coupleId: coupleIds.leo }, coupleIds.ana, SAFETY_REACTIONS);
      await send(conversationId, { user: ana.user, coupleId: coupleIds.ana }, "Hello?", everyone);
      await settle();
      expect(bodies("ana")).toEqual(["Dinner on Friday?", "Yes! Eight?"]);
      expect(bodies("rui")).toEqual(["Dinner on Friday?"]);
      expect(bodies("leo")).toEqual(["Dinner on Friday?", "Yes! Eight?"]);
      expect(bodies("mia")).toEqual(["Dinner on Friday?", "Yes! Eight?"]);
      expect(bodies("fifth")).toEqual([]);
    } finally {
      Object.values(streams).forEach((stream) => stream.close());
    }
  });

  it("sends no read position of a partner who left the couple since it moved: neither their name nor where they read", async () => {
    const { ana, rui, leo, conversationId, coupleIds } = await conversationOfTwo();
    const db = await getDb();
    const messageId = await send(conversationId, { user: leo.user, coupleId: coupleIds.leo }, "Dinner on Friday?", []);
    const [before] = await db.select({ last: liveSequences.lastSeq }).from(liveSequences).where(eq(liveSequences.userId, leo.user.id));
    expect((await talk.read(conversationId, { upTo: messageId }, rui.headers)).status).toBe(200);
    expect((await talk.read(conversationId, { upTo: messageId }, ana.headers)).status).toBe(200);
    // Rui leaves the couple before Leo's stream sends what it missed.
    await db.update(couples).set({ partner2Id: null }).where(eq(couples.id, coupleIds.ana));
    const { stream } = await openStream({ cookie: leo.headers.cookie! }, before?.last ?? 0);
    try {
      await stream.waitFor((events) => named(events, "read").length >= 1);
      await settle();
      expect(named(stream.events, "read").map((event) => (event.data as { userId: string }).userId)).toEqual([ana.user.id]);
    } finally {
      stream.close();
    }
  });

  it("carries what the messaging API writes: a message to the three others with their counts, the read position, the erasure", async () => {
    const { one, two, conversationId } = await connected();
    const [writer, ...others] = [one.a, one.b, two.a, two.b];
    const streams = await Promise.all(
      [writer, ...others].map(async (person) => (await openStream({ cookie: person.headers.cookie! })).stream),
    );
    try {
      await Promise.all(streams.map((stream) => stream.waitFor((events) => events.length >= 1)));
      const sent = await talk.send(conversationId, { body: "Picnic on Sunday?" }, writer.headers);
      expect(sent.status).toBe(201);
      for (const stream of streams) await stream.waitFor((events) => named(events, "message").length === 1);
      expect(named(streams[0]!.events, "message")[0]!.data).toEqual(sent.json.data);
      for (const stream of streams.slice(1))
        await stream.waitFor((events) => named(events, "unread").some((event) => (event.data as { messages: number }).messages === 1));

      const reader = others[2]!;
      expect((await talk.read(conversationId, { upTo: sent.json.data.id }, reader.headers)).status).toBe(200);
      for (const stream of streams)
        await stream.waitFor((events) =>
          named(events, "read").some((event) => (event.data as { userId: string }).userId === reader.userId),
        );
      await streams[3]!.waitFor((events) => (named(events, "unread").at(-1)!.data as { messages: number }).messages === 0);

      expect((await talk.remove(sent.json.data.id, writer.headers)).status).toBeLessThan(300);
      for (const stream of streams) await stream.waitFor((events) => named(events, "message-deleted").length === 1);
      expect(named(streams[1]!.events, "message-deleted")[0]!.data).toMatchObject({
        id: sent.json.data.id,
        conversationId,
        body: null,
        photoUrl: null,
        deleted: true,
      });
      for (const stream of streams)
        expect(ids(stream.events), JSON.stringify(stream.events)).toEqual([...new Set(ids(stream.events))].sort((a, b) => a - b));
    } finally {
      streams.forEach((stream) => stream.close());
    }
  });

  it("sends an erasure across a block: words a moderator removes after it leave the other couple's open thread", async () => {
    const { ana, leo, conversationId, coupleIds } = await conversationOfTwo();
    const messageId = await send(conversationId, { user: leo.user, coupleId: coupleIds.leo }, "Call me on 555-0199", []);
    const db = await getDb();
    await blockCouple(db, { userId: leo.user.id, coupleId: coupleIds.leo }, coupleIds.ana, SAFETY_REACTIONS);
    const { stream } = await openStream({ cookie: ana.headers.cookie! });
    try {
      await stream.waitFor((events) => events.length >= 1);
      await transaction(db, (tx) => removeMessage(tx, messageId));
      await stream.waitFor((events) => named(events, "message-deleted").length === 1);
      expect(named(stream.events, "message-deleted")[0]!.data).toMatchObject({ id: messageId, body: null, deleted: true });
    } finally {
      stream.close();
    }
  });

  it("clears the bell on the person's other streams when they read their notifications", async () => {
    const ana = await person();
    const id = (await notify(ana.user.id))!;
    const { stream } = await openStream(ana.headers);
    try {
      await stream.waitFor((events) => events.length >= 1);
      expect(stream.events[0]!.data).toEqual({ notifications: 1, messages: 0 });
      await markRead(await getDb(), ana.user.id, { ids: [id] });
      await stream.waitFor((events) => named(events, "unread").length >= 2);
      expect(named(stream.events, "notification").at(-1)!.data).toEqual({
        unread_count: 0,
        newest: expect.objectContaining({ is_read: true }),
      });
    } finally {
      stream.close();
    }
  });

  it("sends nothing of a couple the person's couple blocked: not counted, not shown", async () => {
    const [ana, rui] = [await withCouple(), await withCouple()];
    const db = await getDb();
    await blockCouple(db, { userId: ana.user.id, coupleId: ana.coupleId }, rui.coupleId, SAFETY_REACTIONS);
    const { stream } = await openStream({ cookie: ana.headers.cookie! });
    try {
      await stream.waitFor((events) => events.length >= 1);
      await notify(ana.user.id, "From a blocked couple", { actorUserId: rui.user.id, actorCoupleId: rui.coupleId });
      await stream.waitFor((events) => events.length >= 3);
      expect(stream.events.slice(1).map((event) => event.data)).toEqual([
        { unread_count: 0, newest: null },
        { notifications: 0, messages: 0 },
      ]);
    } finally {
      stream.close();
    }
  });

  it("tells the bell when a block is made or lifted: a blocked couple's notification leaves the count, and comes back with it", async () => {
    const [ana, rui] = [await withCouple(), await withCouple()];
    const db = await getDb();
    await notify(ana.user.id, "From Rui", { actorUserId: rui.user.id, actorCoupleId: rui.coupleId });
    const { stream } = await openStream({ cookie: ana.headers.cookie! });
    try {
      await stream.waitFor((events) => events.length >= 1);
      expect(stream.events[0]!.data).toMatchObject({ notifications: 1 });
      await blockCouple(db, { userId: ana.user.id, coupleId: ana.coupleId }, rui.coupleId, SAFETY_REACTIONS);
      await stream.waitFor((events) => named(events, "notification").length >= 1);
      expect(named(stream.events, "notification").at(-1)!.data).toEqual({ unread_count: 0, newest: null });
      await unblockCouple(db, { userId: ana.user.id, coupleId: ana.coupleId }, rui.coupleId, SAFETY_REACTIONS);
      await stream.waitFor((events) => named(events, "notification").length >= 2);
      expect(named(stream.events, "notification").at(-1)!.data).toMatchObject({ unread_count: 1, newest: { title: "From Rui" } });
    } finally {
      stream.close();
    }
  });

  it("ends when the session is revoked, and sends nothing more", async () => {
    const ana = await person();
    const { stream } = await openStream(ana.headers);
    await stream.waitFor((events) => events.length >= 1);
    const db = await getDb();
    await db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, ana.session.sid));
    await notify(ana.user.id);
    await stream.ended;
    expect(stream.events).toHaveLength(1);
  });

  it.each([1, 100, 10_000])("resumes from Last-Event-ID after %i missed messages: each once, in order, none it had", async (missed) => {
    const { ana, conversationId } = await conversationOfTwo();
    await appendRows(ana.user.id, 5);
    const db = await getDb();
    // `missed` messages, each with its live row for Ana, as `missed` sends would leave them.
    await transaction(db, async (tx) => {
      await tx.execute(
        sql`insert into messages (conversation_id, author_user_id, body) select ${conversationId}, null, 'm' || n from generate_series(1, ${missed}) n`,
      );
      await tx.execute(sql`update live_sequences set last_seq = last_seq + ${missed} where user_id = ${ana.user.id}`);
      await tx.execute(
        sql`insert into live_events (user_id, seq, kind, subject_id) select ${ana.user.id}, 5 + row_number() over (order by seq), 'message', id from messages where conversation_id = ${conversationId}`,
      );
    });
    const { stream } = await openStream(ana.headers, 5);
    try {
      await stream.waitFor((events) => events.at(-1)?.id === 5 + missed, 30_000);
      expect(ids(stream.events)).toEqual(Array.from({ length: missed }, (_, i) => 6 + i));
      expect(stream.events.map((event) => (event.data as { body: string }).body)).toEqual(
        Array.from({ length: missed }, (_, i) => `m${i + 1}`),
      );
    } finally {
      stream.close();
    }
  });

  it("tells a client to reload with `reset` when the due work trims rows it had yet to be sent, mid-resume: no silent gap", async () => {
    const { ana, conversationId } = await conversationOfTwo();
    await appendRows(ana.user.id, 5);
    const db = await getDb();
    // 1,200 messages missed (seq 6-1205), long enough that a page fills the stream's queue.
    await transaction(db, async (tx) => {
      await tx.execute(
        sql`insert into messages (conversation_id, author_user_id, body) select ${conversationId}, null, repeat('m', 300) || n from generate_series(1, 1200) n`,
      );
      await tx.execute(sql`update live_sequences set last_seq = last_seq + 1200 where user_id = ${ana.user.id}`);
      await tx.execute(
        sql`insert into live_events (user_id, seq, kind, subject_id) select ${ana.user.id}, 5 + row_number() over (order by seq), 'message', id from messages where conversation_id = ${conversationId}`,
      );
    });
    const abort = new AbortController();
    const request = new NextRequest(new URL("http://localhost:3000/api/stream"), {
      headers: { "x-forwarded-for": freshAddress(), cookie: ana.headers.cookie!, "last-event-id": "5" },
      signal: abort.signal,
    });
    const response = await streamRoute(request, { params: Promise.resolve({} as never) });
    // The client has not read yet: the first page waits in the queue while the due work trims past it.
    await settle(500);
    await db.delete(liveEvents).where(sql`${liveEvents.userId} = ${ana.user.id} and ${liveEvents.seq} <= 800`);
    const stream = readStream(response, abort);
    try {
      await stream.waitFor((events) => events.at(-1)?.id === 1205, 30_000);
      const sent = ids(stream.events);
      // Rows 506-800 were never sent: where the ids jump, the client is told to reload (`reset` at 800), then 801 on follow.
      const gapAt = sent.findIndex((id, i) => i > 0 && id > sent[i - 1]! + 1);
      expect(stream.events[gapAt]).toMatchObject({ id: 800, event: "reset" });
      expect(sent.slice(gapAt)).toEqual(Array.from({ length: 406 }, (_, i) => 800 + i));
    } finally {
      stream.close();
    }
  });

  it("tells a client to reload with `reset` when the due work trims every row it had yet to be sent, mid-resume", async () => {
    const { ana, conversationId } = await conversationOfTwo();
    const db = await getDb();
    // 1,200 messages missed (seq 1-1200), long enough that a page fills the stream's queue.
    await transaction(db, async (tx) => {
      await tx.execute(
        sql`insert into messages (conversation_id, author_user_id, body) select ${conversationId}, null, repeat('m', 300) || n from generate_series(1, 1200) n`,
      );
      await tx.insert(liveSequences).values({ userId: ana.user.id, lastSeq: 1_200 });
      await tx.execute(
        sql`insert into live_events (user_id, seq, kind, subject_id) select ${ana.user.id}, row_number() over (order by id), 'message', id from messages where conversation_id = ${conversationId}`,
      );
    });
    const abort = new AbortController();
    const request = new NextRequest(new URL("http://localhost:3000/api/stream"), {
      headers: { "x-forwarded-for": freshAddress(), cookie: ana.headers.cookie!, "last-event-id": "0" },
      signal: abort.signal,
    });
    const response = await streamRoute(request, { params: Promise.resolve({} as never) });
    await settle(500);
    // The whole history is old: the due work trims it all while the first page waits to be read.
    await db.delete(liveEvents).where(eq(liveEvents.userId, ana.user.id));
    const stream = readStream(response, abort);
    try {
      await stream.waitFor((events) => events.some((event) => event.event === "reset"), 5_000);
      expect(stream.events.at(-1)).toMatchObject({ id: 1_200, event: "reset" });
    } finally {
      stream.close();
    }
  });

  it.skipIf(!onPostgres())("resumes without a `reset` when a row commits while it reads where the history stands", async () => {
    const ana = await person();
    await appendRows(ana.user.id, 10, "notification");
    const db = await getDb();
    // Everything is trimmed: the client, at 10, has missed nothing.
    await db.delete(liveEvents).where(eq(liveEvents.userId, ana.user.id));
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    let locked!: () => void;
    const lockHeld = new Promise<void>((resolve) => (locked = resolve));
    // A publish under way: its sequence row written and its row 11 inserted, not yet committed, the
    // sequences held so that a read of them waits for its commit.
    const publishing = transaction(db, async (tx) => {
      await tx.execute(sql`lock table live_sequences in access exclusive mode`);
      locked();
      await held;
      await tx.execute(sql`update live_sequences set last_seq = 11 where user_id = ${ana.user.id}`);
      await tx.execute(sql`insert into live_events (user_id, seq, kind) values (${ana.user.id}, 11, 'notification')`);
    });
    await lockHeld;
    const { stream } = await openStream(ana.headers, 10);
    try {
      await settle(300);
      commit();
      await publishing;
      await stream.waitFor((events) => events.length >= 1);
      await settle(200);
      expect(stream.events.map(({ id, event }) => ({ id, event }))).toEqual([{ id: 11, event: "notification" }]);
    } finally {
      stream.close();
    }
  });

  it("tells a client to reload with `reset` when what it missed is no longer kept, or its id is not one of this person's", async () => {
    const ana = await person();
    await appendRows(ana.user.id, 10, "notification");
    const db = await getDb();
    await db.delete(liveEvents).where(sql`${liveEvents.userId} = ${ana.user.id} and ${liveEvents.seq} <= 4`);
    for (const [from, expected] of [
      [2, "reset"],
      [500, "reset"],
      ["x1", "reset"],
      [4, "notification"],
    ] as const) {
      const { stream } = await openStream(ana.headers, from);
      try {
        await stream.waitFor((events) => events.length >= 1);
        expect(stream.events[0]).toMatchObject({ id: 10, event: expected });
      } finally {
        stream.close();
      }
    }
  });
});

describe("liveStream", () => {
  const listeners: LiveListener[] = [];
  afterAll(() => Promise.all(listeners.map((listener) => listener.close())));

  async function direct(userId: string, sid: string, listener: LiveListener, overrides: Partial<Parameters<typeof liveStream>[0]> = {}) {
    const db = await getDb();
    const abort = new AbortController();
    const response = liveStream({
      db,
      userId,
      sessionId: sid,
      registry: LIVE_REGISTRY,
      resumeFrom: null,
      lifetimeMs: 60_000,
      listener,
      signal: abort.signal,
      ...overrides,
    });
    return readStream(response, abort);
  }

  it("ends itself after its lifetime, with a heartbeat while it is open", async () => {
    const ana = await person();
    const stream = await direct(
      ana.user.id,
      ana.session.sid,
      createListener(async () => async () => {}),
      {
        lifetimeMs: 400,
        heartbeatMs: 100,
      },
    );
    const started = Date.now();
    await stream.ended;
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect(stream.heartbeats).toBeGreaterThanOrEqual(2);
  });

  it("ends as its server stops, and leaves nothing for the stop once it has ended itself", async () => {
    // lib/shutdown.ts keeps its hooks on globalThis: a stream that ended must take its own back.
    const streamHooks = () => (globalThis as unknown as { __shutdownHooks?: { streams: Set<unknown> } }).__shutdownHooks?.streams.size ?? 0;
    const ana = await person();
    const listener = createListener(async () => async () => {});
    const held = streamHooks();
    const short = await direct(ana.user.id, ana.session.sid, listener, { lifetimeMs: 200 });
    expect(streamHooks()).toBe(held + 1);
    await short.ended;
    expect(streamHooks()).toBe(held);

    const stream = await direct(ana.user.id, ana.session.sid, listener);
    await stream.waitFor((events) => events.length >= 1);
    let ended = false;
    void stream.ended.then(() => (ended = true));
    await settle(100);
    expect(ended).toBe(false);
    await runShutdown("streams");
    await stream.ended;
    expect(named(stream.events, "unread")).toHaveLength(1);
    expect(streamHooks()).toBe(0);
  });

  it("ends at a heartbeat once its session is revoked, while the streams of other sessions beat on", async () => {
    const [ana, rui] = [await person(), await person()];
    const quiet = createListener(async () => async () => {});
    const streams = [
      await direct(ana.user.id, ana.session.sid, quiet, { heartbeatMs: 100 }),
      await direct(rui.user.id, rui.session.sid, quiet, { heartbeatMs: 100 }),
    ];
    await Promise.all(streams.map((stream) => stream.waitFor((events) => events.length >= 1)));
    const db = await getDb();
    await db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, ana.session.sid));
    // No write wakes it: only the heartbeat's session read can end it (its lifetime is a minute).
    await streams[0]!.ended;
    expect(streams[0]!.events).toHaveLength(1);
    const beats = streams[1]!.heartbeats;
    expect(await Promise.race([streams[1]!.ended.then(() => "ended"), settle(500).then(() => "open")])).toBe("open");
    expect(streams[1]!.heartbeats).toBeGreaterThan(beats);
    streams[1]!.close();
  });

  it("reads what a listener never heard of at the next heartbeat (its connection silently dead)", async () => {
    const ana = await person();
    const deaf = createListener(async () => async () => {});
    const stream = await direct(ana.user.id, ana.session.sid, deaf, { heartbeatMs: 100 });
    try {
      await stream.waitFor((events) => events.length >= 1);
      await notify(ana.user.id, "Heard at the heartbeat");
      await stream.waitFor((events) => named(events, "notification").length >= 1, 2_000);
      expect(named(stream.events, "notification")[0]!.data).toMatchObject({ newest: { title: "Heard at the heartbeat" } });
    } finally {
      stream.close();
    }
  });

  it.skipIf(!onPostgres())("loses nothing when the listener's connection is killed: it listens again and reads the gap", async () => {
    const ana = await person();
    const listener = createListener(postgresSource(process.env.DATABASE_URL!));
    listeners.push(listener);
    await listener.ready();
    const stream = await direct(ana.user.id, ana.session.sid, listener);
    await stream.waitFor((events) => events.length >= 1);
    const db = await getDb();
    const killed = await db.execute(
      sql`select pg_terminate_backend(pid) as killed from pg_stat_activity where datname = current_database() and query like 'listen%'`,
    );
    expect((killed as unknown as unknown[]).length).toBeGreaterThanOrEqual(1);
    // Written while the listener is away: its wake-up is lost, the rows are not.
    for (let i = 0; i < 3; i++) await notify(ana.user.id, `While away ${i}`);
    await stream.waitFor((events) => events.at(-1)?.id === 6, 10_000);
    expect(strictlyIncreasing(ids(stream.events))).toBe(true);
    expect(named(stream.events, "notification").at(-1)!.data).toMatchObject({ unread_count: 3 });
    stream.close();
  });

  it.skipIf(!onPostgres())("reaches streams on two instances (a listener each) from a write on either", async () => {
    const [ana, rui] = [await person(), await person()];
    const [one, two] = [
      createListener(postgresSource(process.env.DATABASE_URL!)),
      createListener(postgresSource(process.env.DATABASE_URL!)),
    ];
    listeners.push(one, two);
    await Promise.all([one.ready(), two.ready()]);
    const streams = [await direct(ana.user.id, ana.session.sid, one), await direct(rui.user.id, rui.session.sid, two)];
    await Promise.all(streams.map((stream) => stream.waitFor((events) => events.length >= 1)));
    const db = await getDb();
    await transaction(db, (tx) =>
      publishLive(tx, [
        { userId: ana.user.id, kind: NOTIFICATION },
        { userId: rui.user.id, kind: NOTIFICATION },
      ]),
    );
    for (const stream of streams) await stream.waitFor((events) => events.at(-1)?.id === 2);
    streams.forEach((stream) => stream.close());
  });
});
