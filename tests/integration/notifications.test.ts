import { randomUUID } from "node:crypto";
import { and, count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as list } from "@/app/api/notifications/route";
import { PATCH as read } from "@/app/api/notifications/read/route";
import { GET as unreadCountRoute } from "@/app/api/notifications/unread-count/route";
import { getDb } from "@/db/client";
import { couples, liveEvents, notifications } from "@/db/schema";
import { NOTIFICATION } from "@/lib/notifications/live";
import { createNotification } from "@/lib/notifications/service";
import { browserSession, call, createUser } from "../support/api";
import { apiSession, bearer } from "../support/flows";
import { forum, forumCouple, postBody, type Headers } from "../support/forum";
import { moderatorCouple, sanctions } from "../support/moderation";
import { queryPlan, wholeScans } from "../support/query-plan";

async function signedInUser() {
  const user = await createUser();
  const session = await browserSession(user.id);
  return { user, read: { cookie: session.cookie }, write: { cookie: session.cookie, "x-csrf-token": session.csrf } };
}

/** `count` notifications for the user, one minute apart, the first one the oldest. */
async function seedNotifications(userId: string, count: number, values: Partial<typeof notifications.$inferInsert> = {}) {
  const db = await getDb();
  const start = Date.now() - count * 60_000;
  const rows = Array.from({ length: count }, (_, i) => ({
    userId,
    type: "reaction" as const,
    title: `Reaction ${i + 1}`,
    message: `Someone liked post ${i + 1}`,
    createdAt: new Date(start + i * 60_000),
    ...values,
  }));
  return db.insert(notifications).values(rows).returning({ id: notifications.id });
}

const listCall = (qs: string, headers: Record<string, string>) => call(list, "GET", `/api/notifications${qs}`, { headers });
const countCall = (headers: Record<string, string>) => call(unreadCountRoute, "GET", "/api/notifications/unread-count", { headers });
const readCall = (body: unknown, headers: Record<string, string>) => call(read, "PATCH", "/api/notifications/read", { body, headers });

async function readFlags(ids: string[]) {
  const db = await getDb();
  const rows = await db.select({ id: notifications.id, isRead: notifications.isRead, readAt: notifications.readAt }).from(notifications);
  return rows.filter((row) => ids.includes(row.id));
}

describe("GET /api/notifications", () => {
  it("pages 20 by default, newest first, with total and hasMore", async () => {
    const me = await signedInUser();
    await seedNotifications(me.user.id, 25);
    const first = await listCall("", me.read);
    expect(first.status).toBe(200);
    expect(first.json.data).toHaveLength(20);
    expect(first.json.data[0].title).toBe("Reaction 25");
    expect(first.json.pagination).toEqual({ limit: 20, offset: 0, total: 25, hasMore: true, newestAt: first.json.data[0].created_at });

    const last = await listCall("?limit=20&offset=20", me.read);
    expect(last.json.data.map((n: { title: string }) => n.title)).toEqual([
      "Reaction 5",
      "Reaction 4",
      "Reaction 3",
      "Reaction 2",
      "Reaction 1",
    ]);
    expect(last.json.pagination).toEqual({ limit: 20, offset: 20, total: 25, hasMore: false, newestAt: first.json.data[0].created_at });

    const beyond = await listCall("?offset=40", me.read);
    expect(beyond.json.data).toEqual([]);
    expect(beyond.json.pagination).toEqual({ limit: 20, offset: 40, total: 25, hasMore: false, newestAt: first.json.data[0].created_at });
  });

  it("accepts a limit up to 50", async () => {
    const me = await signedInUser();
    await seedNotifications(me.user.id, 55);
    const res = await listCall("?limit=50", me.read);
    expect(res.json.data).toHaveLength(50);
    expect(res.json.pagination).toEqual({ limit: 50, offset: 0, total: 55, hasMore: true, newestAt: res.json.data[0].created_at });
  });

  it("keeps a stable order for rows created at the same instant, so pages never overlap", async () => {
    const me = await signedInUser();
    await seedNotifications(me.user.id, 7, { createdAt: new Date("2026-01-01T10:00:00Z") });
    const pages = await Promise.all([0, 3, 6].map((offset) => listCall(`?limit=3&offset=${offset}`, me.read)));
    const ids = pages.flatMap((page) => page.json.data.map((n: { id: string }) => n.id));
    expect(new Set(ids).size).toBe(7);
    expect(ids).toEqual([...ids].sort().reverse());
  });

  it("refuses a bad limit or offset with 400, never a 500", async () => {
    const me = await signedInUser();
    const cases: [string, string, string][] = [
      ["?limit=0", "limit", "limit must be between 1 and 50"],
      ["?limit=51", "limit", "limit must be between 1 and 50"],
      ["?limit=ten", "limit", "limit must be a number"],
      ["?limit=2.5", "limit", "limit must be a whole number"],
      ["?offset=-1", "offset", "offset must be between 0 and 100000"],
      ["?offset=abc", "offset", "offset must be a number"],
      ["?offset=100001", "offset", "offset must be between 0 and 100000"],
    ];
    for (const [qs, field, message] of cases) {
      const res = await listCall(qs, me.read);
      expect(res.status, qs).toBe(400);
      expect(res.json.error.code, qs).toBe("VALIDATION_ERROR");
      expect(res.json.error.fields[field], qs).toBe(message);
    }
    expect((await listCall("?limit=&offset=", me.read)).json.pagination).toMatchObject({ limit: 20, offset: 0 });
  });

  it("shows only the caller's notifications, with the actor's picture and couple name joined in while the reader may see it", async () => {
    const me = await signedInUser();
    const someoneElse = await signedInUser();
    const actor = await createUser({ firstName: "Thaddeus", avatarUrl: "/api/images/avatars/thaddeus.webp" });
    const db = await getDb();
    const [couple] = await db
      .insert(couples)
      .values({ partner1Id: actor.id, coupleName: "Marisol & Thaddeus", status: "active", isVisible: true })
      .returning({ id: couples.id });
    const postId = randomUUID();
    const replyId = randomUUID();
    await createNotification(db, {
      userId: me.user.id,
      type: "reply",
      title: "New reply",
      message: "Thaddeus replied to your post",
      postId,
      replyId,
      actorUserId: actor.id,
      actorCoupleId: couple!.id,
    });
    await seedNotifications(someoneElse.user.id, 3);

    const res = await listCall("", me.read);
    expect(res.json.data).toHaveLength(1);
    expect(res.json.data[0]).toEqual({
      id: expect.any(String),
      type: "reply",
      title: "New reply",
      message: "Thaddeus replied to your post",
      content_snippet: "Thaddeus replied to your post",
      is_read: false,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      post_id: postId,
      reply_id: replyId,
      conversation_id: null,
      actor_profile_image_url: "/api/images/avatars/thaddeus.webp",
      actor_couple_name: "Marisol & Thaddeus",
      triggered_by_couple_name: "Marisol & Thaddeus",
      actor_is_partner: false,
    });

    // The couple's own picture wins over a partner's avatar.
    await db.update(couples).set({ profileImageUrl: "/api/images/couples/mt.webp" }).where(eq(couples.id, couple!.id));
    expect((await listCall("", me.read)).json.data[0].actor_profile_image_url).toBe("/api/images/couples/mt.webp");

    // A couple that hid since is pictured and named no more (its words stay); a suspended one's
    // notifications go altogether (below, "the bell and a couple moderators took out of the network").
    await db.update(couples).set({ isVisible: false }).where(eq(couples.id, couple!.id));
    expect((await listCall("", me.read)).json.data[0]).toMatchObject({
      title: "New reply",
      actor_profile_image_url: null,
      actor_couple_name: null,
      triggered_by_couple_name: null,
    });
  });

  it("names the reader's own partner as their partner, by their face, never as the reader's own couple", async () => {
    const me = await signedInUser();
    const partner = await createUser({ firstName: "Ana", avatarUrl: "/api/images/avatars/ana.webp" });
    const db = await getDb();
    const [couple] = await db
      .insert(couples)
      .values({ partner1Id: me.user.id, partner2Id: partner.id, coupleName: "Ana & Me", profileImageUrl: "/api/images/couples/us.webp" })
      .returning({ id: couples.id });
    await createNotification(db, {
      userId: me.user.id,
      type: "reaction",
      title: "Ana reacted to your post",
      message: "Sunday hike",
      postId: randomUUID(),
      actorUserId: partner.id,
      actorCoupleId: couple!.id,
    });
    const [item] = (await listCall("", me.read)).json.data;
    expect(item).toMatchObject({ actor_is_partner: true, actor_profile_image_url: "/api/images/avatars/ana.webp" });
  });

  it("reads a page from its index in order and stops there: no sort of all of a person's rows", async () => {
    const { user } = await signedInUser();
    await seedNotifications(user.id, 30, { groupKey: "conversation:x", isRead: true });
    // The page's and a group's newest row's orders, as lib/notifications writes them.
    const page = await queryPlan(sql`select id from notifications where user_id = ${user.id}
      order by created_at desc, id desc limit 20 offset 20`);
    expect(page).toMatch(/Index (Only )?Scan Backward using notifications_user_created_idx/);
    expect(page).not.toMatch(/Sort/);
    const newestOfGroup = await queryPlan(sql`select id from notifications
      where user_id = ${user.id} and group_key = 'conversation:x' order by created_at desc limit 1`);
    expect(newestOfGroup).toMatch(/Index (Only )?Scan Backward using notifications_user_group_created_idx/);
    expect(newestOfGroup).not.toMatch(/Sort/);
  });

  it("finds the rows naming a person or a couple as the actor by index: an account's deletion, the foreign keys clearing the actor", async () => {
    const { user } = await signedInUser();
    const coupleId = randomUUID();
    for (const [statement, index] of [
      [sql`delete from notifications where actor_user_id = ${user.id}`, "notifications_actor_user_idx"],
      [sql`update notifications set actor_user_id = null where actor_user_id = ${user.id}`, "notifications_actor_user_idx"],
      [sql`update notifications set actor_couple_id = null where actor_couple_id = ${coupleId}`, "notifications_actor_couple_idx"],
    ] as const) {
      const planned = await queryPlan(statement);
      expect(wholeScans(planned)).toEqual([]);
      expect(planned).toContain(index);
    }
  });

  it("answers a bearer client, and 401 without a session", async () => {
    const me = await signedInUser();
    await seedNotifications(me.user.id, 2);
    const session = await apiSession(me.user.email);
    const res = await listCall("", bearer(session.access_token));
    expect(res.status).toBe(200);
    expect(res.json.pagination.total).toBe(2);

    const anonymous = await listCall("", {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error.code).toBe("UNAUTHENTICATED");
  });
});

describe("GET /api/notifications/unread-count", () => {
  it("counts only the caller's unread rows, however many there are", async () => {
    const me = await signedInUser();
    const other = await signedInUser();
    await seedNotifications(me.user.id, 150);
    await seedNotifications(me.user.id, 30, { isRead: true, readAt: new Date() });
    await seedNotifications(other.user.id, 10);
    const res = await countCall(me.read);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, data: { unread_count: 150 } });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("answers 0 for a user without notifications, and 401 without a session", async () => {
    const me = await signedInUser();
    expect((await countCall(me.read)).json.data.unread_count).toBe(0);
    expect((await countCall({})).status).toBe(401);
  });
});

describe("PATCH /api/notifications/read", () => {
  it("marks the named notifications read and counts only those that were unread", async () => {
    const me = await signedInUser();
    const [a, b, c] = await seedNotifications(me.user.id, 3);
    const first = await readCall({ notification_ids: [a!.id, b!.id] }, me.write);
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ success: true, data: { marked_count: 2 } });
    // Already read: not counted again.
    expect((await readCall({ notification_ids: [a!.id, b!.id, a!.id] }, me.write)).json.data.marked_count).toBe(0);

    const flags = await readFlags([a!.id, b!.id, c!.id]);
    expect(flags.find((f) => f.id === a!.id)).toMatchObject({ isRead: true, readAt: expect.any(Date) });
    expect(flags.find((f) => f.id === c!.id)).toMatchObject({ isRead: false, readAt: null });
    expect((await countCall(me.read)).json.data.unread_count).toBe(1);
  });

  it("never marks another user's notifications, nor counts them", async () => {
    const me = await signedInUser();
    const other = await signedInUser();
    const [mine] = await seedNotifications(me.user.id, 1);
    const theirs = await seedNotifications(other.user.id, 2);
    const res = await readCall({ notification_ids: [mine!.id, ...theirs.map((t) => t.id)] }, me.write);
    expect(res.json.data.marked_count).toBe(1);
    expect((await readFlags(theirs.map((t) => t.id))).every((f) => !f.isRead)).toBe(true);
    expect((await countCall(other.read)).json.data.unread_count).toBe(2);
  });

  it("marks all of the caller's unread notifications with mark_all", async () => {
    const me = await signedInUser();
    const other = await signedInUser();
    await seedNotifications(me.user.id, 4);
    await seedNotifications(me.user.id, 2, { isRead: true });
    await seedNotifications(other.user.id, 3);
    expect((await readCall({ mark_all: true }, me.write)).json.data.marked_count).toBe(4);
    expect((await countCall(me.read)).json.data.unread_count).toBe(0);
    expect((await countCall(other.read)).json.data.unread_count).toBe(3);
    expect((await readCall({ mark_all: true }, me.write)).json.data.marked_count).toBe(0);
  });

  it("with mark_all and up_to (the newest shown's created_at) marks only what was shown and older, not what arrived since", async () => {
    const me = await signedInUser();
    await seedNotifications(me.user.id, 2);
    // Written by the database's clock, in microseconds, as a real notification is: shown in milliseconds.
    await seedNotifications(me.user.id, 1, { createdAt: sql`now() - interval '1 minute'` as unknown as Date });
    const shown = (await listCall("?limit=20&offset=0", me.read)).json.data as { created_at: string }[];
    expect(shown).toHaveLength(3);
    const [arrivedSince] = await seedNotifications(me.user.id, 1, { createdAt: sql`now()` as unknown as Date });
    const res = await readCall({ mark_all: true, up_to: shown[0]!.created_at }, me.write);
    expect(res.status).toBe(200);
    expect(res.json.data.marked_count).toBe(3);
    expect(await readFlags([arrivedSince!.id])).toEqual([expect.objectContaining({ isRead: false })]);
    expect((await countCall(me.read)).json.data.unread_count).toBe(1);
  });

  it("on a later page, 'Mark all as read' marks up to the list's newest as that page read it: the first page's too, not what arrived since", async () => {
    const me = await signedInUser();
    await seedNotifications(me.user.id, 24);
    await seedNotifications(me.user.id, 1, { createdAt: sql`now() - interval '1 second'` as unknown as Date });
    const newest = (await listCall("?limit=20&offset=0", me.read)).json.data[0].created_at as string;
    const later = await listCall("?limit=20&offset=20", me.read);
    expect(later.json.data).toHaveLength(5);
    // The bound the page's 'Mark all as read' sends (components/notifications/NotificationsList.tsx).
    expect(later.json.pagination.newestAt).toBe(newest);
    const [arrivedSince] = await seedNotifications(me.user.id, 1, { createdAt: sql`now()` as unknown as Date });
    const res = await readCall({ mark_all: true, up_to: later.json.pagination.newestAt }, me.write);
    expect(res.json.data.marked_count).toBe(25);
    expect(await readFlags([arrivedSince!.id])).toEqual([expect.objectContaining({ isRead: false })]);
    expect((await listCall("?offset=40", me.read)).json.pagination.newestAt).not.toBeNull();
    expect((await listCall("", (await signedInUser()).read)).json.pagination.newestAt).toBeNull();
  });

  it("marks nothing for an empty list and answers 0", async () => {
    const me = await signedInUser();
    await seedNotifications(me.user.id, 2);
    const res = await readCall({ notification_ids: [] }, me.write);
    expect(res.status).toBe(200);
    expect(res.json.data.marked_count).toBe(0);
    expect((await countCall(me.read)).json.data.unread_count).toBe(2);
  });

  it("refuses malformed input with 400", async () => {
    const me = await signedInUser();
    const tooMany = Array.from({ length: 101 }, () => randomUUID());
    const cases: [unknown, string][] = [
      [{}, "_"],
      [{ mark_all: false }, "_"],
      [{ notification_ids: ["not-a-uuid"] }, "notification_ids.0"],
      [{ notification_ids: "abc" }, "notification_ids"],
      [{ notification_ids: tooMany }, "notification_ids"],
      [{ mark_all: "yes" }, "mark_all"],
      [{ mark_all: true, notification_ids: [randomUUID()] }, "_"],
      [{ mark_all: true, up_to: "yesterday" }, "up_to"],
      [{ notification_ids: [randomUUID()], up_to: new Date().toISOString() }, "_"],
    ];
    for (const [body, field] of cases) {
      const res = await readCall(body, me.write);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.json.error.code).toBe("VALIDATION_ERROR");
      expect(Object.keys(res.json.error.fields)).toContain(field);
    }
    const notJson = await call(read, "PATCH", "/api/notifications/read", { rawBody: "[1,2]", headers: me.write });
    expect(notJson.status).toBe(400);
  });

  it("needs the CSRF token with the session cookie, not with a bearer token", async () => {
    const me = await signedInUser();
    await seedNotifications(me.user.id, 2);
    const noToken = await readCall({ mark_all: true }, me.read);
    expect(noToken.status).toBe(403);
    expect(noToken.json.error.code).toBe("CSRF_VALIDATION_FAILED");
    const other = await browserSession(me.user.id);
    expect((await readCall({ mark_all: true }, { ...me.read, "x-csrf-token": other.csrf })).status).toBe(403);
    expect((await countCall(me.read)).json.data.unread_count).toBe(2);

    const session = await apiSession(me.user.email);
    const res = await readCall({ mark_all: true }, bearer(session.access_token));
    expect(res.status).toBe(200);
    expect(res.json.data.marked_count).toBe(2);
  });

  it("answers 401 without a session", async () => {
    const res = await readCall({ mark_all: true }, {});
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe("UNAUTHENTICATED");
  });
});

/** What one person's bell says: the REST list (and its total), the badge's count, and what the live `notification` kind delivers. */
async function bellOf(person: { userId: string; headers: Headers }) {
  const db = await getDb();
  const listed = await listCall("", { cookie: person.headers.cookie! });
  const [live] = (await NOTIFICATION.render({ db, userId: person.userId, once: (_key, read) => read() }, [
    { seq: 0, kind: NOTIFICATION.name, subjectId: null, payload: null },
  ])) as { unread_count: number; newest: { message: string } | null }[];
  return {
    listed: (listed.json.data as { message: string }[]).map((n) => n.message),
    total: listed.json.pagination.total,
    unread: (await countCall({ cookie: person.headers.cookie! })).json.data.unread_count,
    live: { unread: live!.unread_count, newest: live!.newest?.message ?? null },
  };
}

/** How many times the person's open bells were told to recount. */
async function bellsTold(userId: string) {
  const [row] = await (
    await getDb()
  )
    .select({ told: count() })
    .from(liveEvents)
    .where(and(eq(liveEvents.userId, userId), eq(liveEvents.kind, NOTIFICATION.name)));
  return row!.told;
}

describe("the bell and a couple moderators took out of the network", () => {
  it("neither lists nor counts a suspended or banned couple's notifications, nor sends them live; the bells are told, and a lift brings them back", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = (await forum.create(postBody(), us.a.headers)).json.data as { id: string };
    expect((await forum.reply(post.id, { body: "Lovely plan" }, them.a.headers)).status).toBe(201);
    const shown = { listed: ["Lovely plan"], total: 1, unread: 1, live: { unread: 1, newest: "Lovely plan" } };
    expect(await bellOf(us.a)).toEqual(shown);

    const { headers } = await moderatorCouple();
    for (const kind of ["suspend", "ban"]) {
      const told = await bellsTold(us.a.userId);
      const acted = await sanctions.act(them.coupleId, { kind, reason: "hate" }, headers);
      expect(acted.status, kind).toBe(201);
      expect(await bellOf(us.a), kind).toEqual({ listed: [], total: 0, unread: 0, live: { unread: 0, newest: null } });
      expect(await bellsTold(us.a.userId), kind).toBeGreaterThan(told);

      const toldAgain = await bellsTold(us.a.userId);
      expect((await sanctions.lift(acted.json.data.id, { reason: "Appeal heard" }, headers)).status, kind).toBe(200);
      expect(await bellOf(us.a), kind).toEqual(shown);
      expect(await bellsTold(us.a.userId), kind).toBeGreaterThan(toldAgain);
    }
  });
});
