import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/api/account/export/route";
import { getDb } from "@/db/client";
import { connectionRequests } from "@/db/schema";
import { deleteAccount } from "@/lib/account/deletion";
import { CONNECTION } from "@/lib/connections/live";
import { connectionStates } from "@/lib/connections/states";
import { coupleRecord } from "@/lib/safety/couple-record";
import { trustLevelOf } from "@/lib/safety/spam";
import { call, PASSWORD } from "../support/api";
import type { Headers, TestCouple } from "../support/forum";
import { connections, messagingCouple, talk } from "../support/messages";

const exportOf = (headers: Headers) => call(exportRoute, "GET", "/api/account/export", { headers: { cookie: headers.cookie! } });

/** Both partners delete their accounts: the couple goes with the last. */
async function deleteCouple(couple: TestCouple): Promise<void> {
  const db = await getDb();
  await deleteAccount(db, couple.b.userId, PASSWORD);
  await deleteAccount(db, couple.a.userId, PASSWORD);
}

const gone = { id: null, coupleName: "Deleted couple", profileImageUrl: null };

describe("a hello outlives the couple it asked (deleting an account takes nobody else's words)", () => {
  it("keeps the sender's hellos and their notes, to a 'Deleted couple': closed, or accepted; nothing fails", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const other = await messagingCouple();
    const declined = await messagingCouple();
    const open = (await connections.send({ coupleId: them.coupleId, note: "Coffee in Alfama?" }, us.a.headers)).json.data;
    const talked = (await connections.send({ coupleId: other.coupleId, note: "Dinner in Porto?" }, us.b.headers)).json.data;
    const accepted = await connections.accept(talked.id, other.a.headers);
    expect(accepted.status).toBe(200);
    const silent = (await connections.send({ coupleId: declined.coupleId, note: "A walk in Sintra?" }, us.a.headers)).json.data;
    expect((await connections.decline(silent.id, declined.a.headers)).status).toBe(200);
    // And one a leaving couple sent us: it goes with its sender's couple (its note went with its author).
    const asker = await messagingCouple();
    expect((await connections.send({ coupleId: us.coupleId, note: "Hi from them" }, asker.a.headers)).status).toBe(201);

    await deleteCouple(asker);
    await deleteCouple(them);
    await deleteCouple(other);
    await deleteCouple(declined);

    const db = await getDb();
    const rows = await db
      .select({ id: connectionRequests.id, toCoupleId: connectionRequests.toCoupleId, note: connectionRequests.note })
      .from(connectionRequests)
      .where(inArray(connectionRequests.id, [open.id, talked.id, silent.id]));
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.toCoupleId === null)).toBe(true);

    // The sender's list: their words, to a deleted couple, no longer open (a decline is still never told).
    const outgoing = await connections.list("outgoing", us.a.headers);
    expect(outgoing.status).toBe(200);
    expect(outgoing.json.data).toEqual([
      expect.objectContaining({ id: silent.id, status: "closed", couple: gone, note: "A walk in Sintra?" }),
      expect.objectContaining({ id: talked.id, status: "accepted", couple: gone, note: "Dinner in Porto?" }),
      expect.objectContaining({ id: open.id, status: "closed", couple: gone, note: "Coffee in Alfama?" }),
    ]);
    const incoming = await connections.list("incoming", us.b.headers);
    expect(incoming.status).toBe(200);
    expect(incoming.json.data).toEqual([]);
    expect((await talk.unread(us.a.headers)).status).toBe(200);
    expect((await talk.inbox(us.b.headers)).status).toBe(200);

    // Their data export: each partner's own hellos, with their notes.
    const mine = await exportOf(us.a.headers);
    expect(mine.status).toBe(200);
    expect(mine.json.connectionRequestsSent).toEqual([
      expect.objectContaining({ id: silent.id, toCoupleName: "Deleted couple", note: "A walk in Sintra?", status: "closed" }),
      expect.objectContaining({ id: open.id, toCoupleName: "Deleted couple", note: "Coffee in Alfama?", status: "closed" }),
    ]);
    const partners = await exportOf(us.b.headers);
    expect(partners.json.connectionRequestsSent).toEqual([
      expect.objectContaining({ id: talked.id, toCoupleName: "Deleted couple", note: "Dinner in Porto?", status: "accepted" }),
    ]);

    // The live stream renders them to their sender as the list does.
    const live = await CONNECTION.render({ db, userId: us.a.userId, once: (_key, read) => read() }, [
      { seq: 0, kind: CONNECTION.name, subjectId: open.id, payload: null },
    ]);
    expect(live).toEqual([{ id: open.id, status: "closed", conversationId: null }]);

    // 'Say hello' to anyone else is as before: no hello with a deleted couple stands in its way, nor counts as one to them.
    const fresh = await messagingCouple();
    expect((await connectionStates(db, us.coupleId, [fresh.coupleId])).size).toBe(0);
    expect((await connections.send({ coupleId: fresh.coupleId, note: "Coffee in Alfama?" }, us.a.headers)).status).toBe(201);

    // The sender leaving erases their note, as before; the row stays theirs to nobody.
    await deleteAccount(db, us.a.userId, PASSWORD);
    const [after] = await db.select({ note: connectionRequests.note }).from(connectionRequests).where(eq(connectionRequests.id, open.id));
    expect(after?.note).toBe("");
  });

  it("does not weigh a hello to a couple since deleted on its sender's trust or record: it could never be answered", async () => {
    const us = await messagingCouple();
    const db = await getDb();
    const weekAgo = new Date(Date.now() - 24 * 3600 * 1000);
    await db.insert(connectionRequests).values(
      Array.from({ length: 12 }, (_, index) => ({
        fromCoupleId: us.coupleId,
        toCoupleId: null,
        sentByUserId: us.a.userId,
        note: `Hello ${index}`,
        createdAt: weekAgo,
        expiresAt: new Date(Date.now() + 24 * 3600 * 1000),
      })),
    );
    // Twelve unanswered would limit an old couple (at least 10 sent, under a tenth accepted).
    expect(await trustLevelOf(db, { coupleId: us.coupleId, coupleCreatedAt: new Date(0) })).toBe("trusted");
    const record = await coupleRecord(db, us.coupleId, { coupleId: null });
    expect(record.hellos30Days).toEqual({ sent: 0, accepted: 0, unanswered: 0 });
  });
});
