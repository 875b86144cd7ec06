import { asc, eq } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { beforeCommit, transaction } from "@/db/transaction";
import { liveEvents, users } from "@/db/schema";
import { CONNECTION } from "@/lib/connections/live";
import { LIVE_CHANNEL, notifyPayloads, publishLive } from "@/lib/live/publish";
import { MESSAGE, READ } from "@/lib/messages/live";
import { NOTIFICATION } from "@/lib/notifications/live";
import { createUser } from "../support/api";
import { onPostgres } from "../support/test-database";

async function rowsOf(userId: string) {
  const db = await getDb();
  return db
    .select({ seq: liveEvents.seq, kind: liveEvents.kind, subjectId: liveEvents.subjectId })
    .from(liveEvents)
    .where(eq(liveEvents.userId, userId))
    .orderBy(asc(liveEvents.seq));
}

/** Collects what arrives on the live channel, over a connection of its own (as an instance's listener). */
async function listen(): Promise<{ received: string[]; stop: () => Promise<void> }> {
  const received: string[] = [];
  if (onPostgres()) {
    const sql = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    await sql.listen(LIVE_CHANNEL, (payload) => received.push(payload));
    return { received, stop: () => sql.end({ timeout: 1 }) };
  }
  const client = ((await getDb()) as unknown as { $client: unknown }).$client as {
    listen: (channel: string, cb: (p: string) => void) => Promise<() => Promise<void>>;
  };
  const unlisten = await client.listen(LIVE_CHANNEL, (payload) => received.push(payload));
  return { received, stop: unlisten };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

/** A kind that changes no counts (every registered kind now does; a connection's changes the Messages badge). */
const COUNTLESS = { name: CONNECTION.name, changesCounts: false };

describe("publishLive", () => {
  it("numbers each person's events from 1 in order, and follows those that change counts with one unread row", async () => {
    const db = await getDb();
    const [ana, rui] = [await createUser(), await createUser()];
    const message = crypto.randomUUID();
    await transaction(db, (tx) =>
      publishLive(tx, [
        { userId: ana.id, kind: MESSAGE, subjectId: message },
        { userId: rui.id, kind: MESSAGE, subjectId: message },
        { userId: ana.id, kind: READ, subjectId: ana.id },
      ]),
    );
    await transaction(db, (tx) => publishLive(tx, [{ userId: rui.id, kind: COUNTLESS, subjectId: crypto.randomUUID() }]));
    expect((await rowsOf(ana.id)).map((row) => [row.seq, row.kind])).toEqual([
      [1, "message"],
      [2, "read"],
      [3, "unread"],
    ]);
    // A kind that changes no counts: no unread row after it.
    expect((await rowsOf(rui.id)).map((row) => [row.seq, row.kind])).toEqual([
      [1, "message"],
      [2, "unread"],
      [3, "connection"],
    ]);
  });

  it("gives every person gapless, unrepeated numbers when many transactions publish to them at once", async () => {
    const db = await getDb();
    const people = [await createUser(), await createUser(), await createUser()];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        transaction(db, (tx) =>
          publishLive(
            tx,
            // Each transaction names the people in a different order: locks are still taken in one order.
            (i % 2 ? [...people].reverse() : people).map((person) => ({ userId: person.id, kind: COUNTLESS })),
          ),
        ),
      ),
    );
    for (const person of people)
      expect((await rowsOf(person.id)).map((row) => row.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it.skipIf(!onPostgres())("holds a person's next event until the earlier one commits, so numbers commit in order", async () => {
    const db = await getDb();
    const marisol = await createUser();
    let commitFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (commitFirst = resolve));
    let firstPublished!: () => void;
    const published = new Promise<void>((resolve) => (firstPublished = resolve));
    // The sequence rows are locked just before commit (db/transaction.ts beforeCommit): a later
    // hook of the same transaction holds them locked until the test lets it commit.
    const first = transaction(db, async (tx) => {
      await publishLive(tx, [{ userId: marisol.id, kind: COUNTLESS }]);
      beforeCommit(
        tx,
        Symbol("held"),
        () => null,
        async () => {
          firstPublished();
          await firstHeld;
        },
      );
    });
    await published;
    let secondDone = false;
    const second = transaction(db, (tx) => publishLive(tx, [{ userId: marisol.id, kind: COUNTLESS }])).then(() => (secondDone = true));
    await settle();
    expect(secondDone).toBe(false);
    expect(await rowsOf(marisol.id)).toEqual([]);
    commitFirst();
    await Promise.all([first, second]);
    expect((await rowsOf(marisol.id)).map((row) => row.seq)).toEqual([1, 2]);
  });

  it.skipIf(!onPostgres())("leaves out a person whose account another transaction deletes meanwhile, and tells the others", async () => {
    const db = await getDb();
    const [ana, rui] = [await createUser(), await createUser()];
    await publishLive(db, [{ userId: ana.id, kind: COUNTLESS }]);
    // An account's deletion under way: Ana's row (and with it her live sequence) deleted, not yet committed.
    let deleted!: () => void;
    const deletedNow = new Promise<void>((resolve) => (deleted = resolve));
    const deletion = transaction(db, async (tx) => {
      await tx.delete(users).where(eq(users.id, ana.id));
      beforeCommit(
        tx,
        Symbol("held open"),
        () => null,
        async () => {
          deleted();
          await new Promise((resolve) => setTimeout(resolve, 300));
        },
      );
    });
    await deletedNow;
    // A message to the conversation she was in, sent as she goes: it waits for the deletion, then tells Rui.
    await publishLive(db, [
      { userId: ana.id, kind: COUNTLESS },
      { userId: rui.id, kind: COUNTLESS },
    ]);
    await deletion;
    expect((await rowsOf(rui.id)).map((row) => row.seq)).toEqual([1]);
    expect(await rowsOf(ana.id)).toEqual([]);
  });

  it("wakes listeners with the people to wake at commit, and writes and wakes nothing on rollback", async () => {
    const db = await getDb();
    const [thaddeus, lea] = [await createUser(), await createUser()];
    const listener = await listen();
    try {
      await transaction(db, async (tx) => {
        await publishLive(tx, [{ userId: thaddeus.id, kind: NOTIFICATION }]);
        throw new Error("rolled back");
      }).catch(() => {});
      await settle();
      expect(listener.received).toEqual([]);
      expect(await rowsOf(thaddeus.id)).toEqual([]);

      await transaction(db, (tx) =>
        publishLive(tx, [
          { userId: thaddeus.id, kind: NOTIFICATION },
          { userId: lea.id, kind: NOTIFICATION },
        ]),
      );
      await settle();
      expect(listener.received).toEqual([[thaddeus.id, lea.id].sort().join(",")]);
    } finally {
      await listener.stop();
    }
  });
});

describe("notifyPayloads", () => {
  it("splits many people into payloads under pg_notify's 8,000-byte limit, each id whole and once", () => {
    const ids = Array.from({ length: 1000 }, () => crypto.randomUUID());
    const payloads = notifyPayloads(ids);
    expect(payloads.length).toBeGreaterThan(1);
    expect(payloads.every((payload) => payload.length < 8000)).toBe(true);
    expect(payloads.flatMap((payload) => payload.split(","))).toEqual(ids);
  });
});
