import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { connectionRequests, notifications } from "@/db/schema";
import { REQUEST_EXPIRY_DAYS } from "@/lib/connections/rules";
import { connectionRequest } from "@/lib/notifications/types/connection-request";
import { runDueWork } from "@/lib/scheduled/service";
import { connections, messagingCouple } from "../support/messages";
import { queryPlan, wholeScans } from "../support/query-plan";
import { nextWhileWaiting } from "../support/lock-race";
import { onPostgres } from "../support/test-database";

const DAY = 24 * 60 * 60 * 1000;

/** The receiving partners' hello notices from `fromCoupleId`: read or not. */
async function noticesFrom(fromCoupleId: string, userIds: string[]) {
  const db = await getDb();
  const rows = await db
    .select({ userId: notifications.userId, isRead: notifications.isRead })
    .from(notifications)
    .where(
      and(
        eq(notifications.type, connectionRequest.type),
        eq(notifications.actorCoupleId, fromCoupleId),
        inArray(notifications.userId, userIds),
      ),
    );
  return rows.map((row) => row.isRead);
}

describe("a hello's notice once the hello expired", () => {
  it("is marked read by the due work, as an answered hello's is; one still open stays unread", async () => {
    const db = await getDb();
    const [old, fresh, asked] = [await messagingCouple(), await messagingCouple(), await messagingCouple()];
    const expired = await connections.send({ coupleId: asked.coupleId, note: "Hello from long ago" }, old.a.headers);
    expect((await connections.send({ coupleId: asked.coupleId, note: "Hello today" }, fresh.a.headers)).status).toBe(201);
    // Sent (request and notices) a day past the expiry.
    const sentAt = new Date(Date.now() - (REQUEST_EXPIRY_DAYS + 1) * DAY);
    await db
      .update(connectionRequests)
      .set({ createdAt: sentAt, expiresAt: new Date(sentAt.getTime() + REQUEST_EXPIRY_DAYS * DAY) })
      .where(eq(connectionRequests.id, expired.json.data.id));
    await db
      .update(notifications)
      .set({ createdAt: sentAt })
      .where(and(eq(notifications.type, connectionRequest.type), eq(notifications.actorCoupleId, old.coupleId)));
    const partners = [asked.a.userId, asked.b.userId];
    expect(await noticesFrom(old.coupleId, partners)).toEqual([false, false]);

    await runDueWork(db);
    expect(await noticesFrom(old.coupleId, partners)).toEqual([true, true]);
    expect(await noticesFrom(fresh.coupleId, partners)).toEqual([false, false]);
    // As the hello left the requests when it expired.
    expect((await connections.list("incoming", asked.a.headers)).json.total).toBe(1);
  });

  it.skipIf(!onPostgres())("finds the expired hellos' unread notices in their own index, never reading every notification", async () => {
    const plan = await queryPlan(
      sql`select id from notifications where type = ${connectionRequest.type} and is_read = false and created_at <= now() - interval '30 days' order by created_at limit 1000`,
    );
    expect(wholeScans(plan)).toEqual([]);
    expect(plan).toContain("notifications_hello_unread_created_idx");
  });
});

describe.skipIf(!onPostgres())("the due work marking expired hellos' notices read beside an account's deletion: no deadlock", () => {
  it("waits on the recipient's row before holding their notice (the deletion holds the person, then deletes what is theirs)", async () => {
    const db = await getDb();
    const [old, asked] = [await messagingCouple(), await messagingCouple()];
    const sent = await connections.send({ coupleId: asked.coupleId, note: "Hello from long ago" }, old.a.headers);
    const sentAt = new Date(Date.now() - (REQUEST_EXPIRY_DAYS + 1) * DAY);
    await db
      .update(connectionRequests)
      .set({ createdAt: sentAt, expiresAt: new Date(sentAt.getTime() + REQUEST_EXPIRY_DAYS * DAY) })
      .where(eq(connectionRequests.id, sent.json.data.id));
    const notices = await db
      .update(notifications)
      .set({ createdAt: sentAt })
      .where(and(eq(notifications.type, connectionRequest.type), eq(notifications.actorCoupleId, old.coupleId)))
      .returning({ id: notifications.id, userId: notifications.userId });
    const notice = notices.find((row) => row.userId === asked.a.userId)!;
    const { waited } = await nextWhileWaiting(
      // What an account's deletion takes first (lib/account/deletion.ts): the person's row.
      (tx) => tx`select id from users where id = ${asked.a.userId} for update`,
      () => runDueWork(db),
      // ...then what is theirs, their notices among it. NOWAIT: it fails if the due work holds it while it waits.
      (tx) => tx`select id from notifications where id = ${notice.id} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(await noticesFrom(old.coupleId, [asked.a.userId, asked.b.userId])).toEqual([true, true]);
  });
});
