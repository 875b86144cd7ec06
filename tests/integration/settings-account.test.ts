import { and, eq, inArray } from "drizzle-orm";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { DELETE as deleteAccountRoute } from "@/app/api/account/route";
import { GET as exportRoute } from "@/app/api/account/export/route";
import { GET as openReportsRoute } from "@/app/api/moderation/reports/route";
import { POST as reportRoute } from "@/app/api/reports/route";
import { getDb } from "@/db/client";
import { couples, forumPosts, liveEvents, locations, notifications, sessions, users } from "@/db/schema";
import { unreadCount } from "@/lib/notifications/queries";
import { coupleBadge } from "@/lib/couples/rules";
import { localImageStorage, newStorageKey } from "@/lib/storage";
import { PASSWORD, browserSession, call } from "../support/api";
import { registerViaApi } from "../support/flows";
import { forum, forumCouple, postBody, type Headers, type TestCouple } from "../support/forum";

const report = (body: unknown, headers: Headers) => call(reportRoute, "POST", "/api/reports", { body, headers });
const openReports = (headers: Headers) => call(openReportsRoute, "GET", "/api/moderation/reports", { headers });
const exportOf = (headers: Headers) => call(exportRoute, "GET", "/api/account/export", { headers: { cookie: headers.cookie! } });
const remove = (headers: Headers, password = PASSWORD) =>
  call(deleteAccountRoute, "DELETE", "/api/account", { body: { password }, headers });

/** A stored file under the configured (local) storage; its URL as a row would hold it. */
async function storedImage(folder: string) {
  const key = newStorageKey(folder, "jpg");
  const { url } = await localImageStorage()!.put(key, Buffer.from([0xff, 0xd8, 0xff, 0xd9]), "image/jpeg");
  return { key, url: url! };
}
const exists = async (key: string) => (await localImageStorage()!.read(key)) !== null;

/** A couple whose partners each have a photo, the couple a main photo, B a post with a photo and a reply. */
async function coupleWithContent(): Promise<
  TestCouple & { images: Record<"a" | "b" | "main" | "postPhoto", { key: string; url: string }>; postId: string }
> {
  const couple = await forumCouple();
  const db = await getDb();
  const images = {
    a: await storedImage("avatar"),
    b: await storedImage("avatar"),
    main: await storedImage("couple-photo"),
    postPhoto: await storedImage("forum-photo"),
  };
  await db.update(users).set({ avatarUrl: images.a.url }).where(eq(users.id, couple.a.userId));
  await db.update(users).set({ avatarUrl: images.b.url }).where(eq(users.id, couple.b.userId));
  await db
    .update(couples)
    .set({ profileImageUrl: images.main.url, partnerAVerified: true, partnerBVerified: true, isVerified: true, status: "active" })
    .where(eq(couples.id, couple.coupleId));
  const post = await forum.create(postBody({ title: "B's own post" }), couple.b.headers);
  expect(post.status).toBe(201);
  await db
    .update(forumPosts)
    .set({ photos: [images.postPhoto.url] })
    .where(eq(forumPosts.id, post.json.data.id));
  expect((await forum.reply(post.json.data.id, { body: "B answers" }, couple.b.headers)).status).toBe(201);
  await forum.create(postBody({ title: "A's own post" }), couple.a.headers);
  return { ...couple, images, postId: post.json.data.id };
}

describe("GET /api/account/export", () => {
  it("is a JSON file with the person's profile, couple, posts, replies and sessions, and no secret", async () => {
    const couple = await coupleWithContent();
    const res = await exportOf(couple.b.headers);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="two-of-us-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const data = res.json;
    expect(data.profile.id).toBe(couple.b.userId);
    expect(data.couple).toMatchObject({ id: couple.coupleId, partner: { id: couple.a.userId, firstName: couple.a.firstName } });
    // The couple's own setting ('Both of us approve new connections') is the couple's data too.
    expect(data.couple.bothApproveConnections).toBe(false);
    expect(data.posts.map((p: { title: string }) => p.title)).toEqual(["B's own post"]);
    expect(data.replies.map((r: { body: string }) => r.body)).toEqual(["B answers"]);
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(data.imageUrls).toEqual(expect.arrayContaining([couple.images.b.url, couple.images.main.url, couple.images.postPhoto.url]));
    expect(data.imageUrls).not.toContain(couple.images.a.url);
    const text = JSON.stringify(data);
    const db = await getDb();
    const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, couple.b.userId));
    expect(text).not.toContain(row!.hash);
    expect(text).not.toMatch(/password|token|hash/i);
    // The partner's own details are theirs, not in this export.
    expect(text).not.toContain("A's own post");
  });

  it("needs a session", async () => {
    expect((await call(exportRoute, "GET", "/api/account/export")).status).toBe(401);
  });

  it("streams a long history in parts (a buffered answer past 4.5 MB fails on Vercel); ten exports an hour", async () => {
    const couple = await forumCouple();
    const db = await getDb();
    const words = "Thinking of you both. ".repeat(400);
    await db
      .insert(notifications)
      .values(
        Array.from({ length: 600 }, (_, i) => ({ userId: couple.a.userId, type: "reply" as const, title: `Note ${i}`, message: words })),
      );
    const request = new NextRequest("http://localhost:3000/api/account/export", { headers: { cookie: couple.a.headers.cookie! } });
    const response = await exportRoute(request, { params: Promise.resolve({} as never) });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const received: Uint8Array[] = [];
    for (let part = await reader.read(); !part.done; part = await reader.read()) received.push(part.value);
    const bytes = received.reduce((sum, part) => sum + part.byteLength, 0);
    const parts = received.length;
    expect(bytes).toBeGreaterThan(4.5 * 1024 * 1024);
    expect(parts).toBeGreaterThan(10);
    expect(JSON.parse(Buffer.concat(received).toString("utf8")).notifications).toHaveLength(600);

    for (let i = 1; i <= 10; i++) expect((await exportOf(couple.b.headers)).status).toBe(200);
    const refused = await exportOf(couple.b.headers);
    expect(refused.status).toBe(429);
    expect(refused.json.error.message).toBe("Too many requests. Please try again later.");
    expect((await exportOf(couple.a.headers)).status, "each partner's exports count apart").toBe(200);
  });
});

describe("DELETE /api/account", () => {
  it("refuses a wrong password (403) and a missing one (400) with nothing changed", async () => {
    const couple = await coupleWithContent();
    expect((await remove(couple.b.headers, "Wrong-Horse7!")).json.error.code).toBe("INVALID_PASSWORD");
    expect((await call(deleteAccountRoute, "DELETE", "/api/account", { body: {}, headers: couple.b.headers })).status).toBe(400);
    const db = await getDb();
    expect(await db.select().from(users).where(eq(users.id, couple.b.userId))).toHaveLength(1);
    expect(await exists(couple.images.b.key)).toBe(true);
  });

  it("partner B: their rows and images go; the couple stays with A as 'Beta Member'; B's posts show \"Deleted member\"", async () => {
    const couple = await coupleWithContent();
    const other = await browserSession(couple.b.userId);
    const res = await remove(couple.b.headers);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: { couple: "kept-with-partner" } });
    // The browser forgets the cookie, cleared with the attributes it was set with (guard-session-cookie.test.ts: on https too).
    const cookieName = couple.b.headers.cookie!.split("=")[0]!;
    expect(res.headers.getSetCookie()).toEqual([
      expect.stringMatching(new RegExp(`^${cookieName}=; Path=/; .*Max-Age=0; .*HttpOnly; SameSite=lax`, "i")),
    ]);
    const db = await getDb();
    expect(await db.select().from(users).where(eq(users.id, couple.b.userId))).toHaveLength(0);
    expect(await db.select().from(sessions).where(eq(sessions.id, other.sid))).toHaveLength(0);
    const [row] = await db.select().from(couples).where(eq(couples.id, couple.coupleId));
    expect(row).toMatchObject({ partner1Id: couple.a.userId, partner2Id: null });
    expect(coupleBadge(row!)).toBe("Beta Member");
    // B's images are gone from storage; A's and the couple's stay.
    expect(await exists(couple.images.b.key)).toBe(false);
    expect(await exists(couple.images.postPhoto.key)).toBe(false);
    expect(await exists(couple.images.a.key)).toBe(true);
    expect(await exists(couple.images.main.key)).toBe(true);
    // The post and its reply stay, signed "Deleted member".
    const thread = await forum.thread(couple.postId, couple.a.headers);
    expect(thread.status).toBe(200);
    expect(thread.json.data.post.author).toMatchObject({ userId: null, firstName: "Deleted member", signature: "Deleted member" });
    expect(thread.json.data.post.photos).toEqual([]);
    expect(thread.json.data.replies[0].author.signature).toBe("Deleted member");
    // The couple verified again later (a new partner B): a deleted member's words never carry its badge.
    await db
      .update(couples)
      .set({ isVerified: true, partnerAVerified: true, partnerBVerified: true })
      .where(eq(couples.id, couple.coupleId));
    const again = (await forum.thread(couple.postId, couple.a.headers)).json.data;
    expect([again.post.author.isVerified, again.replies[0].author.isVerified]).toEqual([false, false]);
    const list = await forum.list("?scope=global&sort=new&limit=50", couple.a.headers);
    const own = list.json.data.find((p: { title: string }) => p.title === "A's own post");
    expect(own.author).toMatchObject({ userId: couple.a.userId, isVerified: true });
  });

  it("partner A while B stays: B becomes the couple's partner A", async () => {
    const couple = await coupleWithContent();
    expect((await remove(couple.a.headers)).json.data.couple).toBe("kept-with-partner");
    const db = await getDb();
    const [row] = await db.select().from(couples).where(eq(couples.id, couple.coupleId));
    expect(row).toMatchObject({ partner1Id: couple.b.userId, partner2Id: null, isVerified: false });
    expect(await exists(couple.images.a.key)).toBe(false);
    expect(await exists(couple.images.main.key)).toBe(true);
  });

  it('the last partner: the couple, its place and photos go; its posts stay as "Deleted member" with other couples\' replies', async () => {
    const couple = await coupleWithContent();
    const them = await forumCouple();
    const theirReply = (await forum.reply(couple.postId, { body: "Count us in" }, them.a.headers)).json.data;
    await forum.react("post", couple.postId, "heart", true, them.b.headers);
    const theirPost = (await forum.create(postBody({ title: "Their own thread" }), them.a.headers)).json.data;
    await forum.reply(theirPost.id, { body: "A answers them" }, couple.a.headers);
    await remove(couple.b.headers);
    const res = await remove(couple.a.headers);
    expect(res.json).toEqual({ data: { couple: "deleted" } });

    // The person and the couple are erased: their rows, place and images.
    const db = await getDb();
    expect(
      await db
        .select()
        .from(users)
        .where(inArray(users.id, [couple.a.userId, couple.b.userId])),
    ).toHaveLength(0);
    expect(await db.select().from(couples).where(eq(couples.id, couple.coupleId))).toHaveLength(0);
    expect(await db.select().from(locations).where(eq(locations.entityId, couple.coupleId))).toHaveLength(0);
    for (const image of Object.values(couple.images)) expect(await exists(image.key)).toBe(false);

    // Nobody else's words go: the couple's thread stays with the other couple's reply and reaction.
    const deletedMember = {
      userId: null,
      firstName: "Deleted member",
      coupleId: null,
      coupleName: null,
      coupleImageUrl: null,
      isVerified: false,
      signature: "Deleted member",
      profileShown: false,
    };
    const thread = await forum.thread(couple.postId, them.a.headers);
    expect(thread.status).toBe(200);
    expect(thread.json.data.post).toMatchObject({ title: "B's own post", photos: [], author: deletedMember });
    expect(thread.json.data.post.reactions.heart).toBe(1);
    expect(thread.json.data.replies.map((r: { body: string; author: object }) => [r.body, r.author])).toEqual([
      ["B answers", deletedMember],
      ["Count us in", expect.objectContaining({ userId: them.a.userId, coupleId: them.coupleId })],
    ]);
    expect(thread.json.data.replies[1].id).toBe(theirReply.id);
    // Their reply to another couple's thread stays there too, and the lists show the couple's posts.
    const other = await forum.thread(theirPost.id, them.b.headers);
    expect(other.json.data.replies.map((r: { body: string; author: object }) => [r.body, r.author])).toEqual([
      ["A answers them", deletedMember],
    ]);
    const list = await forum.list("?scope=global&sort=new&limit=50", them.a.headers);
    expect(list.json.data.find((p: { id: string }) => p.id === couple.postId)?.author).toEqual(deletedMember);
    // The other couple's data export still holds their reply.
    expect((await exportOf(them.a.headers)).json.replies.map((r: { body: string }) => r.body)).toEqual(["Count us in"]);
  });

  it("a deleted member's thread still takes replies, quotes, reactions and reports (their couple is gone, so nobody is told)", async () => {
    const couple = await coupleWithContent();
    const them = await forumCouple();
    const admin = await forumCouple();
    const db = await getDb();
    await db.update(users).set({ role: "admin" }).where(eq(users.id, admin.a.userId));
    await remove(couple.b.headers);
    await remove(couple.a.headers);
    const quoted = (await forum.thread(couple.postId, them.a.headers)).json.data.replies[0];
    expect(quoted.body).toBe("B answers");
    const reply = await forum.reply(couple.postId, { body: "Still a good trail", quoteReplyId: quoted.id }, them.a.headers);
    expect(reply.status).toBe(201);
    expect(reply.json.data.quote).toMatchObject({ id: quoted.id, author: null, excerpt: "B answers" });
    expect((await forum.react("post", couple.postId, "heart", true, them.b.headers)).status).toBe(200);
    expect((await forum.react("reply", quoted.id, "heart", true, them.b.headers)).status).toBe(200);
    // Nobody is told: nobody of the deleted couple is left.
    const told = await db.select({ userId: notifications.userId }).from(notifications).where(eq(notifications.postId, couple.postId));
    expect(told).toEqual([]);
    for (const [targetType, targetId] of [
      ["post", couple.postId],
      ["reply", quoted.id],
    ]) {
      expect((await report({ targetType, targetId, reason: "spam" }, them.a.headers)).status).toBe(201);
      const queued = (await openReports(admin.a.headers)).json.data.find((r: { targetId: string }) => r.targetId === targetId);
      expect(queued.content).toMatchObject({ coupleId: null, coupleName: "Deleted member", postId: couple.postId });
    }
  });

  it("erases the person's name from the notifications others got about what they did", async () => {
    const couple = await coupleWithContent();
    const them = await forumCouple();
    const reply = (await forum.reply(couple.postId, { body: "Count us in" }, them.a.headers)).json.data;
    await forum.react("reply", reply.id, "heart", true, couple.a.headers);
    await forum.reply(couple.postId, { body: "See you there" }, couple.a.headers);
    const db = await getDb();
    const namingA = () => db.select({ title: notifications.title }).from(notifications).where(eq(notifications.userId, them.a.userId));
    expect((await namingA()).map((n) => n.title)).toEqual([`${couple.name} reacted to your reply`]);
    await remove(couple.b.headers);
    await remove(couple.a.headers);
    expect(await namingA()).toEqual([]);
    const everywhere = await db.select({ title: notifications.title }).from(notifications);
    expect(everywhere.filter((n) => n.title.includes(couple.a.firstName) || n.title.includes(couple.name))).toEqual([]);
  });

  it("tells the bells of those whose notifications about them went: their count drops at once, not at a reload", async () => {
    const couple = await coupleWithContent();
    const them = await forumCouple();
    const reply = (await forum.reply(couple.postId, { body: "Count us in" }, them.a.headers)).json.data;
    await forum.react("reply", reply.id, "heart", true, couple.a.headers);
    const db = await getDb();
    expect(await unreadCount(db, them.a.userId)).toBe(1);
    const told = async () =>
      (
        await db
          .select({ seq: liveEvents.seq })
          .from(liveEvents)
          .where(and(eq(liveEvents.userId, them.a.userId), eq(liveEvents.kind, "notification")))
      ).length;
    const before = await told();
    expect((await remove(couple.a.headers)).status).toBe(200);
    expect(await unreadCount(db, them.a.userId)).toBe(0);
    expect(await told()).toBe(before + 1);
  });

  it("frees the e-mail address to register again", async () => {
    const { user, password } = await registerViaApi();
    const session = await browserSession(user.id);
    const res = await call(deleteAccountRoute, "DELETE", "/api/account", {
      body: { password },
      headers: { cookie: session.cookie, "x-csrf-token": session.csrf },
    });
    expect(res.status).toBe(200);
    expect(res.json.data.couple).toBe("none");
    const again = await registerViaApi(user.email);
    expect(again.user.id).not.toBe(user.id);
  });

  it("needs a session and the CSRF token", async () => {
    const couple = await forumCouple();
    expect((await remove({})).status).toBe(401);
    expect((await remove({ cookie: couple.a.headers.cookie! })).status).toBe(403);
  });
});
