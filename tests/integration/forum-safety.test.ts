import { and, eq, inArray } from "drizzle-orm";
import { NextRequest } from "next/server";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { GET as blocksRoute } from "@/app/api/blocks/route";
import { DELETE as unblockRoute, PUT as blockRoute } from "@/app/api/couples/[id]/block/route";
import { POST as photosRoute } from "@/app/api/forum/photos/route";
import { GET as imageRoute } from "@/app/api/images/[...key]/route";
import { GET as nearbyRoute } from "@/app/api/locations/nearby/route";
import { POST as resolveRoute } from "@/app/api/moderation/reports/[id]/[action]/route";
import { GET as openReportsRoute } from "@/app/api/moderation/reports/route";
import { POST as reportRoute } from "@/app/api/reports/route";
import { getDb } from "@/db/client";
import { coupleBlocks, couples, forumPhotos, forumPosts, notifications, users } from "@/db/schema";
import { readThread } from "@/lib/forum/queries";
import { runDueWork } from "@/lib/scheduled/service";
import { listNotifications } from "@/lib/notifications/queries";
import { TOO_MANY_REQUESTS } from "@/lib/rate-limit";
import { BLOCKS_PER_USER } from "@/lib/safety/rules";
import { call } from "../support/api";
import { onPostgres } from "../support/test-database";
import { connected } from "../support/messages";
import { nextWhileWaiting } from "../support/lock-race";
import { actingA } from "../support/plans";
import { recordingStatements } from "../support/query-plan";
import { forum, forumCouple, LISBON, mentioning, postBody, SINTRA, type Headers, type TestCouple } from "../support/forum";

const block = (id: string, h: Headers) => call(blockRoute, "PUT", `/api/couples/${id}/block`, { headers: h, params: { id } });
const unblock = (id: string, h: Headers) => call(unblockRoute, "DELETE", `/api/couples/${id}/block`, { headers: h, params: { id } });
const blocks = (h: Headers) => call(blocksRoute, "GET", "/api/blocks", { headers: h });
const report = (body: unknown, h: Headers) => call(reportRoute, "POST", "/api/reports", { body, headers: h });
const openReports = (h: Headers) => call(openReportsRoute, "GET", "/api/moderation/reports", { headers: h });
const resolve = (id: string, action: string, h: Headers) =>
  call(resolveRoute, "POST", `/api/moderation/reports/${id}/${action}`, { headers: h, params: { id, action } });

async function makeAdmin(couple: TestCouple) {
  const db = await getDb();
  await db.update(users).set({ role: "admin" }).where(eq(users.id, couple.a.userId));
  return couple.a.headers;
}

const ids = (res: { json: { data: { id: string }[] } }) => res.json.data.map((item) => item.id);

describe("blocks", () => {
  it("hides both couples from each other, both ways and for both partners; unblocking restores", async () => {
    const us = await forumCouple({ place: LISBON });
    const them = await forumCouple({ place: SINTRA });
    const ours = (await forum.create(postBody(), us.a.headers)).json.data;
    const theirs = (await forum.create(postBody(), them.a.headers)).json.data;
    const theirReply = (await forum.reply(ours.id, { body: "Hello neighbours" }, them.b.headers)).json.data;
    await forum.react("post", ours.id, "heart", true, them.a.headers);

    const res = await block(them.coupleId, us.b.headers);
    expect(res.status).toBe(200);
    expect((await block(them.coupleId, us.b.headers)).status).toBe(200);

    for (const viewer of [us.a, us.b]) {
      expect(ids(await forum.list("", viewer.headers))).not.toContain(theirs.id);
      expect((await forum.thread(theirs.id, viewer.headers)).status).toBe(404);
      const thread = (await forum.thread(ours.id, viewer.headers)).json.data;
      expect(thread.replies.map((r: { id: string }) => r.id)).not.toContain(theirReply.id);
      expect(thread.post.reactions.heart).toBe(0);
    }
    for (const viewer of [them.a, them.b]) {
      expect(ids(await forum.list("", viewer.headers))).not.toContain(ours.id);
      expect((await forum.thread(ours.id, viewer.headers)).status).toBe(404);
      expect((await forum.reply(ours.id, { body: "Still here?" }, viewer.headers)).status).toBe(404);
      expect((await forum.react("post", ours.id, "wow", true, viewer.headers)).status).toBe(404);
    }
    // The couple that blocked cannot mention the other (403 BLOCKED); the blocked couple's mention of it
    // is dropped as a hidden couple's is, so it never learns of the block. Their places are not nearby either.
    expect((await forum.create(postBody(mentioning(them)), us.a.headers)).json.error.code).toBe("BLOCKED");
    const mention = await forum.create(postBody(mentioning(us)), them.a.headers);
    expect(mention.status).toBe(201);
    expect(mention.json.data.mentions).toEqual([]);
    const nearby = await call(nearbyRoute, "GET", `/api/locations/nearby?lat=${LISBON.lat}&lng=${LISBON.lng}&radius=50`, {
      headers: { cookie: us.a.headers.cookie! },
    });
    expect(nearby.json.data.locations.map((l: { entity_id: string }) => l.entity_id)).not.toContain(them.coupleId);
    // Their earlier notifications are not shown either.
    const db = await getDb();
    const mine = await listNotifications(db, us.a.userId, { limit: 50, offset: 0 });
    expect(mine.data.filter((n) => n.triggered_by_couple_name === them.name)).toEqual([]);
    expect((await db.select().from(notifications).where(eq(notifications.userId, us.a.userId))).length).toBeGreaterThan(0);

    const listed = await blocks(us.a.headers);
    expect(listed.json.data).toEqual([expect.objectContaining({ coupleId: them.coupleId, coupleName: them.name })]);
    expect((await blocks(them.a.headers)).json.data).toEqual([]);

    // Only the couple that blocked can lift its block.
    await unblock(us.coupleId, them.a.headers);
    expect((await forum.thread(ours.id, them.a.headers)).status).toBe(404);
    expect((await unblock(them.coupleId, us.a.headers)).status).toBe(200);
    expect((await forum.thread(ours.id, them.a.headers)).status).toBe(200);
    expect((await blocks(us.a.headers)).json.data).toEqual([]);
  });

  it("lists a blocked couple by its name, and its photo only while it is discoverable", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const db = await getDb();
    await db.update(couples).set({ profileImageUrl: "/api/images/couples/them.webp" }).where(eq(couples.id, them.coupleId));
    expect((await block(them.coupleId, us.a.headers)).status).toBe(200);
    const photoOf = async () => (await blocks(us.b.headers)).json.data[0];
    expect(await photoOf()).toMatchObject({ coupleName: them.name, coupleImageUrl: "/api/images/couples/them.webp" });
    for (const change of [{ isVisible: false }, { status: "suspended" }]) {
      await db.update(couples).set(change).where(eq(couples.id, them.coupleId));
      expect(await photoOf()).toMatchObject({ coupleName: them.name, coupleImageUrl: null });
      await db.update(couples).set({ isVisible: true, status: "active" }).where(eq(couples.id, them.coupleId));
    }
  });

  it("refuses to block one's own couple (400), a missing couple (404) and a malformed id (400)", async () => {
    const us = await forumCouple();
    expect((await block(us.coupleId, us.a.headers)).status).toBe(400);
    // The same id in capitals is the same couple (Postgres reads either case): refused alike, never a 500.
    const shouted = await block(us.coupleId.toUpperCase(), us.a.headers);
    expect(shouted.status).toBe(400);
    expect((shouted.json as { error: { message: string } }).error.message).toBe("You cannot block your own couple.");
    expect((await block("00000000-0000-4000-8000-000000000000", us.a.headers)).status).toBe(404);
    expect((await block("nope", us.a.headers)).status).toBe(400);
  });

  it("answers a couple the caller may not see as a missing one (404, the same error), to a block and to a couple's report", async () => {
    const us = await forumCouple();
    const hidden = await forumCouple({ visible: false });
    const suspended = await forumCouple();
    const blocker = await forumCouple();
    const db = await getDb();
    await db.update(couples).set({ status: "suspended" }).where(eq(couples.id, suspended.coupleId));
    expect((await block(us.coupleId, blocker.a.headers)).status).toBe(200);
    const missingId = crypto.randomUUID();
    const missingBlock = await block(missingId, us.a.headers);
    const missingReport = await report({ targetType: "couple", targetId: missingId, reason: "spam" }, us.a.headers);
    expect(missingBlock.status).toBe(404);
    expect(missingReport.status).toBe(404);
    for (const them of [hidden, suspended, blocker]) {
      const blocked = await block(them.coupleId, us.a.headers);
      expect(blocked.status, them.name).toBe(404);
      expect(blocked.json.error).toEqual(missingBlock.json.error);
      const reported = await report({ targetType: "couple", targetId: them.coupleId, reason: "spam" }, us.a.headers);
      expect(reported.status, them.name).toBe(404);
      expect(reported.json.error).toEqual(missingReport.json.error);
      // Lifting a block the caller never made changes nothing, for any id alike.
      expect((await unblock(them.coupleId, us.a.headers)).status).toBe(200);
    }
    expect((await unblock(missingId, us.a.headers)).status).toBe(200);
    expect((await blocks(us.a.headers)).json.data).toEqual([]);
  });

  it("still blocks a couple hidden from the directory whose words the caller reads: its forum post, or their conversation", async () => {
    const us = await forumCouple();
    const poster = await forumCouple({ visible: false });
    expect((await forum.create(postBody(), poster.a.headers)).status).toBe(201);
    expect((await block(poster.coupleId, us.a.headers)).status).toBe(200);
    // Blocking again changes nothing, though the post is now hidden from the caller.
    expect((await block(poster.coupleId, us.b.headers)).status).toBe(200);

    const { one, two } = await connected();
    const db = await getDb();
    await db.update(couples).set({ isVisible: false }).where(eq(couples.id, two.coupleId));
    expect((await report({ targetType: "couple", targetId: two.coupleId, reason: "harassment" }, one.a.headers)).status).toBe(201);
    expect((await block(two.coupleId, one.a.headers)).status).toBe(200);
  });

  it("counts blocks and unblocks together against the person's hourly limit, then answers 429 and changes nothing", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    for (let i = 0; i < BLOCKS_PER_USER.limit / 2; i++) {
      expect((await block(them.coupleId, us.a.headers)).status).toBe(200);
      expect((await unblock(them.coupleId, us.a.headers)).status).toBe(200);
    }
    const over = await block(them.coupleId, us.a.headers);
    expect(over.status).toBe(429);
    expect((over.json as { error: { code: string; message: string } }).error).toEqual({ code: "RATE_LIMITED", message: TOO_MANY_REQUESTS });
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await blocks(us.a.headers)).json.data).toEqual([]);
    // The partner has an hour of their own.
    expect((await block(them.coupleId, us.b.headers)).status).toBe(200);
  });

  it("refuses to quote a blocked couple's reply (403 BLOCKED); to the blocked couple, the reply of the couple that blocked them is not there", async () => {
    const host = await forumCouple();
    const us = await forumCouple();
    const them = await forumCouple();
    const post = (await forum.create(postBody(), host.a.headers)).json.data;
    const theirReply = (await forum.reply(post.id, { body: "Our view" }, them.a.headers)).json.data;
    const ourReply = (await forum.reply(post.id, { body: "Ours" }, us.a.headers)).json.data;
    await block(them.coupleId, us.a.headers);
    const res = await forum.reply(post.id, { body: "Replying to you", quoteReplyId: theirReply.id }, us.a.headers);
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("BLOCKED");
    // Answered as a reply that is not in the thread is (400), never as a block.
    const theirs = await forum.reply(post.id, { body: "Replying to you", quoteReplyId: ourReply.id }, them.a.headers);
    const missing = await forum.reply(post.id, { body: "Replying to nobody", quoteReplyId: crypto.randomUUID() }, them.a.headers);
    expect(theirs.status).toBe(400);
    expect(theirs.json.error).toEqual(missing.json.error);
  });
});

describe("a reply in a thread its author may no longer open", () => {
  it("tells its author neither of a reply quoting it nor of a reaction to it: both would lead to a post blocked from them", async () => {
    const owner = await forumCouple();
    const quoted = await forumCouple();
    const other = await forumCouple();
    const post = (await forum.create(postBody(), owner.a.headers)).json.data as { id: string };
    const early = (await forum.reply(post.id, { body: "Count us in" }, quoted.a.headers)).json.data as { id: string };
    expect((await block(quoted.coupleId, owner.a.headers)).status).toBe(200);
    // Another couple still reads the thread and the reply, and may quote it and react to it.
    expect((await forum.reply(post.id, { body: "Us too", quoteReplyId: early.id }, other.a.headers)).status).toBe(201);
    expect((await forum.react("reply", early.id, "heart", true, other.a.headers)).status).toBe(200);
    expect((await forum.thread(post.id, quoted.a.headers)).status).toBe(404);
    const db = await getDb();
    expect(await db.select({ type: notifications.type }).from(notifications).where(eq(notifications.userId, quoted.a.userId))).toEqual([]);
  });
});

describe("a reaction notice's count of couples", () => {
  it("leaves out a couple blocked either way, as the post's own counts do", async () => {
    const us = await forumCouple();
    const blocked = await forumCouple();
    const fan = await forumCouple();
    const post = (await forum.create(postBody(), us.a.headers)).json.data as { id: string };
    await forum.react("post", post.id, "heart", true, blocked.a.headers);
    expect((await block(blocked.coupleId, us.b.headers)).status).toBe(200);
    await forum.react("post", post.id, "heart", true, fan.a.headers);
    expect((await forum.thread(post.id, us.a.headers)).json.data.post.reactions.heart).toBe(1);
    const db = await getDb();
    const rows = await db
      .select({ title: notifications.title, actorCount: notifications.actorCount })
      .from(notifications)
      .where(and(eq(notifications.userId, us.a.userId), eq(notifications.type, "reaction"), eq(notifications.actorCoupleId, fan.coupleId)));
    expect(rows).toEqual([{ title: `${fan.name} reacted to your post`, actorCount: 1 }]);
  });
});

describe.skipIf(!onPostgres())("a block at the instant of a reaction", () => {
  it("a reply's author's couple blocking the reactor while the reaction is written answers 404, not 500", async () => {
    const author = await forumCouple();
    const reactor = await forumCouple();
    const post = (await forum.create(postBody(), author.a.headers)).json.data;
    const reply = (await forum.reply(post.id, { body: "Hello there" }, author.b.headers)).json.data;
    const { waited, answer } = await nextWhileWaiting(
      // The same reaction, written and not yet committed: the reaction's insert waits on it.
      (tx) =>
        tx`insert into forum_reactions (post_id, reply_id, user_id, couple_id, kind) values (${post.id}, ${reply.id}, ${reactor.a.userId}, ${reactor.coupleId}, 'heart')`,
      () => forum.react("reply", reply.id, "heart", true, reactor.a.headers),
      // Then the author's couple blocks the reactor's, in the same commit.
      (tx) => tx`insert into couple_blocks (blocker_couple_id, blocked_couple_id) values (${author.coupleId}, ${reactor.coupleId})`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(404);
    expect(answer.json.error.code).toBe("NOT_FOUND");
  });
});

describe.skipIf(!onPostgres())("a block at the instant of a mention", () => {
  it("a mentioned couple blocking the author while the reply is written is waited for: the mention is dropped, no notice reaches it", async () => {
    const poster = await forumCouple();
    const us = await forumCouple();
    const them = await forumCouple();
    const post = (await forum.create(postBody(), poster.a.headers)).json.data;
    const pair = us.coupleId < them.coupleId ? `${us.coupleId}:${them.coupleId}` : `${them.coupleId}:${us.coupleId}`;
    const { waited, answer } = await nextWhileWaiting(
      // A block between the two couples under way: it holds their pair's lock (lib/safety/blocking.ts).
      (tx) => tx`select pg_advisory_xact_lock(hashtextextended(${`couple-pair:${pair}`}, 0))`,
      () => forum.reply(post.id, mentioning(them), us.a.headers),
      (tx) => tx`insert into couple_blocks (blocker_couple_id, blocked_couple_id) values (${them.coupleId}, ${us.coupleId})`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(201);
    expect(answer.json.data.mentions).toEqual([]);
    const db = await getDb();
    const told = await db
      .select({ type: notifications.type })
      .from(notifications)
      .where(inArray(notifications.userId, [them.a.userId, them.b.userId]));
    expect(told).toEqual([]);
  });
});

describe.skipIf(!onPostgres())("a block at the instant of a reply", () => {
  const pairKey = (one: string, other: string) => `couple-pair:${one < other ? `${one}:${other}` : `${other}:${one}`}`;
  const toldAny = async (couple: TestCouple) =>
    (await getDb())
      .select({ type: notifications.type })
      .from(notifications)
      .where(inArray(notifications.userId, [couple.a.userId, couple.b.userId]));

  it("the post's couple blocking the replier while the reply is written is waited for: the post is gone for them, no notice reaches its couple", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = (await forum.create(postBody(), them.a.headers)).json.data;
    const { waited, answer } = await nextWhileWaiting(
      // A block between the two couples under way: it holds their pair's lock (lib/safety/blocking.ts).
      (tx) => tx`select pg_advisory_xact_lock(hashtextextended(${pairKey(us.coupleId, them.coupleId)}, 0))`,
      () => forum.reply(post.id, { body: "Count us in" }, us.a.headers),
      (tx) => tx`insert into couple_blocks (blocker_couple_id, blocked_couple_id) values (${them.coupleId}, ${us.coupleId})`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(404);
    expect(await toldAny(them)).toEqual([]);
  });

  it("a quoted reply's couple blocking the replier while the reply is written is waited for: its author is not told", async () => {
    const poster = await forumCouple();
    const us = await forumCouple();
    const them = await forumCouple();
    const post = (await forum.create(postBody(), poster.a.headers)).json.data;
    const theirReply = (await forum.reply(post.id, { body: "We will bring snacks" }, them.a.headers)).json.data;
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select pg_advisory_xact_lock(hashtextextended(${pairKey(us.coupleId, them.coupleId)}, 0))`,
      () => forum.reply(post.id, { body: "Snacks are great", quoteReplyId: theirReply.id }, us.a.headers),
      (tx) => tx`insert into couple_blocks (blocker_couple_id, blocked_couple_id) values (${them.coupleId}, ${us.coupleId})`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(400);
    expect(await toldAny(them)).toEqual([]);
  });
});

describe("POST /api/reports", () => {
  it("takes one report per person and target (201, then 409 ALREADY_REPORTED) and refuses bad input", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = (await forum.create(postBody(), them.a.headers)).json.data;
    const body = { targetType: "post", targetId: post.id, reason: "spam", note: "Selling things" };
    const first = await report(body, us.a.headers);
    expect(first.status).toBe(201);
    expect(first.json.message).toBe("Thanks, our team will review this.");
    const again = await report({ ...body, reason: "other" }, us.a.headers);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("ALREADY_REPORTED");
    // The partner is another person: their report counts on its own.
    expect((await report(body, us.b.headers)).status).toBe(201);
    expect((await report({ ...body, reason: "rude" }, us.a.headers)).json.error.message).toBe("Please choose a reason");
    expect((await report({ ...body, targetType: "event" }, us.a.headers)).status).toBe(400);
    expect((await report({ ...body, targetId: "00000000-0000-4000-8000-000000000000" }, us.a.headers)).status).toBe(404);
    expect((await report({ ...body, targetType: "couple", targetId: us.coupleId }, us.a.headers)).status).toBe(400);
    expect((await report({ targetType: "couple", targetId: them.coupleId, reason: "harassment" }, us.a.headers)).status).toBe(201);
  });

  it("takes no report of a reply in a thread the reporter may not read: a post whose couple blocked theirs, or one hidden by reports", async () => {
    const host = await forumCouple();
    const them = await forumCouple();
    const us = await forumCouple();
    const post = (await forum.create(postBody(), host.a.headers)).json.data;
    const reply = (await forum.reply(post.id, { body: "Our view" }, them.a.headers)).json.data;
    await block(us.coupleId, host.a.headers);
    expect((await forum.thread(post.id, us.a.headers)).status).toBe(404);
    const blocked = await report({ targetType: "reply", targetId: reply.id, reason: "spam" }, us.a.headers);
    const missing = await report({ targetType: "reply", targetId: crypto.randomUUID(), reason: "spam" }, us.a.headers);
    expect(blocked.status).toBe(404);
    expect(blocked.json.error).toEqual(missing.json.error);

    const hidden = (await forum.create(postBody(), host.a.headers)).json.data;
    const inHidden = (await forum.reply(hidden.id, { body: "Another view" }, them.a.headers)).json.data;
    for (const reporter of [await forumCouple(), await forumCouple(), await forumCouple()])
      expect((await report({ targetType: "post", targetId: hidden.id, reason: "spam" }, reporter.a.headers)).status).toBe(201);
    const reader = await forumCouple();
    expect((await forum.thread(hidden.id, reader.a.headers)).status).toBe(404);
    expect((await report({ targetType: "reply", targetId: inHidden.id, reason: "spam" }, reader.a.headers)).status).toBe(404);
  });

  it("hides content reported by 3 different couples from everyone but its couple, until a moderator reviews it", async () => {
    const author = await forumCouple();
    const reader = await forumCouple();
    const reporters = [await forumCouple(), await forumCouple(), await forumCouple()];
    const post = (await forum.create(postBody(), author.a.headers)).json.data;
    const reply = (await forum.reply(post.id, { body: "Buy my stuff" }, author.b.headers)).json.data;
    for (const [i, couple] of reporters.entries()) {
      // Both partners of the first couple report: still one couple.
      if (i === 0) await report({ targetType: "reply", targetId: reply.id, reason: "spam" }, couple.b.headers);
      expect((await report({ targetType: "reply", targetId: reply.id, reason: "spam" }, couple.a.headers)).status).toBe(201);
      const seen = (await forum.thread(post.id, reader.a.headers)).json.data.replies.map((r: { id: string }) => r.id);
      expect(seen.includes(reply.id), `after ${i + 1} couples`).toBe(i < 2);
    }
    const own = (await forum.thread(post.id, author.a.headers)).json.data.replies;
    expect(own[0]).toMatchObject({ id: reply.id, hidden: true, body: "Buy my stuff" });

    // A moderator dismisses: shown again.
    const admin = await makeAdmin(await forumCouple());
    const queue = (await openReports(admin)).json.data.filter((r: { targetId: string }) => r.targetId === reply.id);
    // One row for the reply: its four reports, by three couples.
    expect(queue).toHaveLength(1);
    expect(queue[0]).toMatchObject({ reports: 4, couples: 3, reasons: [{ reason: "spam", count: 4 }] });
    expect(queue[0].content).toMatchObject({ body: "Buy my stuff", postId: post.id, coupleName: author.name });
    expect((await resolve(queue[0].id, "dismiss", admin)).status).toBe(200);
    expect((await openReports(admin)).json.data.filter((r: { targetId: string }) => r.targetId === reply.id)).toEqual([]);
    expect((await forum.thread(post.id, reader.a.headers)).json.data.replies[0]).toMatchObject({ id: reply.id, hidden: false });
  });
});

describe("moderation", () => {
  it("is forbidden to anyone but moderators and admins (403, the usual error shape)", async () => {
    const us = await forumCouple();
    const res = await openReports(us.a.headers);
    expect(res.status).toBe(403);
    expect(res.json.error).toMatchObject({ code: "FORBIDDEN" });
    expect((await resolve("00000000-0000-4000-8000-000000000000", "remove", us.a.headers)).status).toBe(403);
    expect((await openReports({})).status).toBe(401);
  });

  it("removes reported content: the thread shows 'Removed by a moderator' and lists leave it out", async () => {
    const author = await forumCouple();
    const reader = await forumCouple();
    const admin = await makeAdmin(await forumCouple());
    const post = (await forum.create(postBody(), author.a.headers)).json.data;
    await forum.reply(post.id, { body: "A fair reply" }, reader.a.headers);
    const filed = (await report({ targetType: "post", targetId: post.id, reason: "inappropriate" }, reader.b.headers)).json.data;
    expect((await resolve(filed.id, "ban", admin)).status).toBe(400);
    expect((await resolve(filed.id, "remove", admin)).status).toBe(200);
    expect((await resolve(filed.id, "remove", admin)).status).toBe(404);
    const thread = (await forum.thread(post.id, reader.a.headers)).json.data;
    expect(thread.post).toMatchObject({ removed: true, title: "Removed by a moderator", body: "" });
    expect(ids(await forum.list("", reader.a.headers))).not.toContain(post.id);
    expect((await forum.patch(post.id, { title: "Back again" }, author.a.headers)).status).toBe(404);
  });
});

describe("a post's reply count", () => {
  const counted = async (postId: string, viewer: TestCouple) => {
    const listed = (await forum.list("", viewer.a.headers)).json.data.find((p: { id: string }) => p.id === postId);
    const thread = (await forum.thread(postId, viewer.a.headers)).json.data.post;
    expect(listed.replyCount, "the list and the thread agree").toBe(thread.replyCount);
    return thread.replyCount as number;
  };

  it("counts the replies each viewer may read: not a blocked couple's, not one hidden by reports; a removed one for nobody, once", async () => {
    const author = await forumCouple();
    const viewer = await forumCouple();
    const blocked = await forumCouple();
    const spammer = await forumCouple();
    const reporters = [await forumCouple(), await forumCouple(), await forumCouple()];
    const admin = await makeAdmin(await forumCouple());
    const post = (await forum.create(postBody(), author.a.headers)).json.data;
    await forum.reply(post.id, { body: "First from the blocked couple" }, blocked.a.headers);
    await forum.reply(post.id, { body: "Second from the blocked couple" }, blocked.b.headers);
    const spam = (await forum.reply(post.id, { body: "Buy my stuff" }, spammer.a.headers)).json.data;
    const authors = (await forum.reply(post.id, { body: "Thanks, all" }, author.b.headers)).json.data;
    await forum.reply(post.id, { body: "Lovely idea" }, viewer.b.headers);
    expect(await counted(post.id, viewer)).toBe(5);

    expect((await block(blocked.coupleId, viewer.a.headers)).status).toBe(200);
    expect(await counted(post.id, viewer)).toBe(3);
    expect(await counted(post.id, blocked), "the blocked couple no longer reads the viewer's reply").toBe(4);
    expect(await counted(post.id, author)).toBe(5);

    const reportIds: string[] = [];
    for (const couple of reporters)
      reportIds.push((await report({ targetType: "reply", targetId: spam.id, reason: "spam" }, couple.a.headers)).json.data.id);
    expect(await counted(post.id, viewer)).toBe(2);
    expect(await counted(post.id, author)).toBe(4);
    expect(await counted(post.id, spammer), "its own couple still reads its hidden reply").toBe(5);

    expect((await resolve(reportIds[0]!, "remove", admin)).status).toBe(200);
    expect(await counted(post.id, spammer)).toBe(4);
    expect(await counted(post.id, viewer)).toBe(2);

    // Deleted by its author while reported, then removed: counted off once.
    const filed = (await report({ targetType: "reply", targetId: authors.id, reason: "spam" }, viewer.a.headers)).json.data;
    expect((await forum.removeReply(authors.id, author.b.headers)).status).toBe(200);
    expect(await counted(post.id, author)).toBe(3);
    expect((await resolve(filed.id, "remove", admin)).status).toBe(200);
    expect(await counted(post.id, author)).toBe(3);
  });

  it("reads a thread's later pages (cursor) as its first: a couple blocked either way, its reactions and a reply hidden by reports stay out", async () => {
    const author = await forumCouple();
    const us = await forumCouple();
    const them = await forumCouple();
    const spammer = await forumCouple();
    const post = (await forum.create(postBody(), author.a.headers)).json.data;
    const one = (await forum.reply(post.id, { body: "One from the author" }, author.a.headers)).json.data;
    await forum.reply(post.id, { body: "Two from them" }, them.a.headers);
    const spam = (await forum.reply(post.id, { body: "Buy my stuff" }, spammer.a.headers)).json.data;
    const three = (await forum.reply(post.id, { body: "Three from the author" }, author.b.headers)).json.data;
    await forum.react("reply", three.id, "heart", true, them.b.headers);
    await forum.react("reply", three.id, "heart", true, author.a.headers);
    for (const couple of [await forumCouple(), await forumCouple(), await forumCouple()])
      expect((await report({ targetType: "reply", targetId: spam.id, reason: "spam" }, couple.a.headers)).status).toBe(201);
    expect((await block(us.coupleId, them.a.headers)).status).toBe(200);

    const pages = async (viewer: TestCouple) => {
      const seen: { id: string; reactions: { heart: number } }[][] = [];
      let qs = "?limit=1";
      for (let page = 0; page < 5; page++) {
        const answer = (await forum.thread(post.id, viewer.a.headers, qs)).json.data;
        seen.push(answer.replies);
        if (!answer.pagination.hasMore) break;
        qs = `?limit=1&cursor=${encodeURIComponent(answer.pagination.nextCursor)}`;
      }
      return seen;
    };
    const ours = await pages(us);
    expect(ours.map((page) => page.map((reply) => reply.id))).toEqual([[one.id], [three.id]]);
    expect(ours[1]![0]!.reactions.heart, "the blocking couple's reaction is not counted").toBe(1);
    const spammers = (await pages(spammer)).flat().map((reply) => reply.id);
    expect(spammers, "its own couple still reads its hidden reply").toContain(spam.id);
    expect(spammers).toHaveLength(4);
    const outsider = await forumCouple();
    expect((await pages(outsider)).flat().map((reply) => reply.id)).toEqual([one.id, expect.any(String), three.id]);
  });

  it.skipIf(!onPostgres())(
    "reads a thread's page in one statement, the viewer's couple and the post bound once, with its replies, reactions and mentions",
    async () => {
      const author = await forumCouple();
      const viewer = await forumCouple();
      const named = await forumCouple();
      const post = (await forum.create(postBody(), author.a.headers)).json.data;
      const reply = (await forum.reply(post.id, mentioning(named), author.b.headers)).json.data;
      await forum.react("reply", reply.id, "heart", true, viewer.b.headers);
      const db = await getDb();
      const { logging, logged } = recordingStatements(db);
      const thread = await readThread(logging, actingA(viewer), post.id, { limit: 50 });
      expect(logged).toHaveLength(1);
      expect(logged[0]!.params.filter((value) => value === viewer.coupleId)).toHaveLength(1);
      expect(logged[0]!.params.filter((value) => value === post.id)).toHaveLength(1);
      expect(thread.replies.map((shown) => [shown.id, shown.reactions.heart, shown.mentions.map((m) => m.coupleId)])).toEqual([
        [reply.id, 1, [named.coupleId]],
      ]);
    },
  );

  it("leaves a couple blocked both ways out once: two block rows take each of its replies off once", async () => {
    const author = await forumCouple();
    const us = await forumCouple();
    const them = await forumCouple();
    const post = (await forum.create(postBody(), author.a.headers)).json.data;
    for (const body of ["One from them", "Two from them", "Three from them"]) await forum.reply(post.id, { body }, them.a.headers);
    await forum.reply(post.id, { body: "One from us" }, us.a.headers);
    expect((await block(them.coupleId, us.a.headers)).status).toBe(200);
    // A blocked couple cannot name the couple that blocked it (404, as a missing one): the second
    // row is one made before the first, as two blocks crossing each other leave.
    expect((await block(us.coupleId, them.a.headers)).status).toBe(404);
    const db = await getDb();
    await db.insert(coupleBlocks).values({ blockerCoupleId: them.coupleId, blockedCoupleId: us.coupleId, createdByUserId: them.a.userId });
    expect(await counted(post.id, us)).toBe(1);
    expect(await counted(post.id, them)).toBe(3);
    expect(await counted(post.id, author)).toBe(4);
  });
});

describe("POST /api/forum/photos", () => {
  const upload = async (h: Headers, file: Blob | string | null) => {
    const form = new FormData();
    if (file !== null) form.append("photo", file);
    const request = new NextRequest(new URL("/api/forum/photos", "http://localhost:3000"), { method: "POST", headers: h, body: form });
    const response = await photosRoute(request, { params: Promise.resolve({} as never) });
    return { status: response.status, json: await response.json() };
  };

  it("stores an upload through the image pipeline; only its uploader can attach it to a post", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const jpeg = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: "#336699" } })
      .jpeg()
      .toBuffer();
    const res = await upload(us.a.headers, new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }));
    expect(res.status).toBe(201);
    const url = res.json.data.url as string;
    expect(url).toMatch(/^\/api\/images\/forum-photo\/[0-9a-f]{32}\.jpg$/);
    const post = await forum.create(postBody({ photos: [url] }), us.a.headers);
    expect(post.status).toBe(201);
    expect(post.json.data.photos).toEqual([url]);
    const stolen = await forum.create(postBody({ photos: [url] }), them.a.headers);
    expect(stolen.status).toBe(400);
    // Another's upload reads like one gone (added again, it works): whose it is stays unsaid.
    expect(stolen.json.error.fields.photos).toBe("This photo's upload has expired. Please add the photo again.");
    const elsewhere = await forum.create(postBody({ photos: ["https://elsewhere.example/a.jpg"] }), them.a.headers);
    expect(elsewhere.json.error.fields.photos).toBe("Please upload the photo here: links to images elsewhere are not accepted");
    expect((await forum.create(postBody({ photos: [url, url, url, url, "/a", "/b"] }), us.a.headers)).status).toBe(400);
  });

  const photo = async (h: Headers) => {
    const jpeg = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#669933" } })
      .jpeg()
      .toBuffer();
    return (await upload(h, new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }))).json.data.url as string;
  };
  /** What anyone holding the URL gets: the image route's status. */
  const served = async (url: string) => {
    const prefix = "/api/images/";
    const request = new NextRequest(new URL(url, "http://localhost:3000"));
    const response = await imageRoute(request, { params: Promise.resolve({ key: url.slice(prefix.length).split("/") }) });
    await response.arrayBuffer();
    return response.status;
  };

  it("takes a photo's file down once no post shows it: edited out, the post deleted, or removed by a moderator", async () => {
    const us = await forumCouple();
    const reader = await forumCouple();
    const admin = await makeAdmin(await forumCouple());
    const [kept, editedOut, ofDeleted, ofRemoved] = [
      await photo(us.a.headers),
      await photo(us.a.headers),
      await photo(us.a.headers),
      await photo(us.a.headers),
    ];
    const edited = (await forum.create(postBody({ photos: [kept, editedOut] }), us.a.headers)).json.data;
    // A photo a post shows is claimed: no second post shows it.
    expect((await forum.create(postBody({ photos: [kept] }), us.a.headers)).status).toBe(400);
    const patched = await forum.patch(edited.id, { photos: [kept] }, us.a.headers);
    expect(patched.status).toBe(200);
    expect(patched.json.data.photos).toEqual([kept]);
    expect([await served(kept), await served(editedOut)]).toEqual([200, 404]);
    // One edited out cannot come back: it is gone.
    expect((await forum.patch(edited.id, { photos: [kept, editedOut] }, us.a.headers)).status).toBe(400);

    const deleted = (await forum.create(postBody({ photos: [ofDeleted] }), us.a.headers)).json.data;
    await forum.reply(deleted.id, { body: "Lovely view" }, reader.a.headers);
    expect((await forum.remove(deleted.id, us.a.headers)).status).toBe(200);
    expect(await served(ofDeleted)).toBe(404);

    const removed = (await forum.create(postBody({ photos: [ofRemoved] }), us.a.headers)).json.data;
    const filed = (await report({ targetType: "post", targetId: removed.id, reason: "inappropriate" }, reader.a.headers)).json.data;
    expect((await resolve(filed.id, "remove", admin)).status).toBe(200);
    expect(await served(ofRemoved)).toBe(404);
    expect(await served(kept)).toBe(200);
  });

  it.skipIf(!onPostgres())(
    "an edit adding a photo and a delete at one instant leave no photo file a deleted post still names",
    async () => {
      const us = await forumCouple();
      for (let round = 0; round < 4; round++) {
        const [kept, added] = [await photo(us.a.headers), await photo(us.a.headers)];
        const post = (await forum.create(postBody({ photos: [kept] }), us.a.headers)).json.data;
        const [edit, removal] = await Promise.all([
          forum.patch(post.id, { photos: [kept, added] }, us.a.headers),
          forum.remove(post.id, us.a.headers),
        ]);
        expect(removal.status).toBe(200);
        // Either the edit came first (and the delete took both), or it found the post gone (404).
        expect([200, 404]).toContain(edit.status);
        const [row] = await (await getDb()).select({ photos: forumPosts.photos }).from(forumPosts).where(eq(forumPosts.id, post.id));
        expect(row!.photos).toEqual([]);
        expect(await served(kept)).toBe(404);
        if (edit.status === 200) expect(await served(added)).toBe(404);
      }
    },
  );

  it("sweeps an upload no post claimed within a day, file and all", async () => {
    const us = await forumCouple();
    const [unused, used] = [await photo(us.a.headers), await photo(us.a.headers)];
    await forum.create(postBody({ photos: [used] }), us.a.headers);
    const db = await getDb();
    const dayLater = new Date(Date.now() + 25 * 3_600_000);
    expect((await runDueWork(db, dayLater)).swept).toBeGreaterThanOrEqual(1);
    expect([await served(unused), await served(used)]).toEqual([404, 200]);
    expect(await db.select().from(forumPhotos).where(eq(forumPhotos.url, unused))).toEqual([]);
    // A draft kept that long names it: the post is refused with what to do.
    const late = await forum.create(postBody({ photos: [unused] }), us.a.headers);
    expect(late.status).toBe(400);
    expect(late.json.error.fields.photos).toBe("This photo's upload has expired. Please add the photo again.");
  });

  it("refuses a missing photo or a file that is not an image (400)", async () => {
    const us = await forumCouple();
    expect((await upload(us.a.headers, null)).status).toBe(400);
    expect((await upload(us.a.headers, new Blob(["<svg/>"], { type: "image/svg+xml" }))).status).toBe(400);
  });
});

describe("a post's last activity (the Latest order)", () => {
  it("moves only for replies every reader sees: not for one of a couple in a block, and back once one is hidden by reports", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const blocker = await forumCouple();
    const loud = await forumCouple();
    const post = (await forum.create(postBody(), us.a.headers)).json.data as { id: string; createdAt: string };
    const lastActivity = async () => (await forum.thread(post.id, us.a.headers)).json.data.post.lastActivityAt as string;
    expect((await block(them.coupleId, blocker.a.headers)).status).toBe(200);
    // The blocking couple would see the post rise with nothing new in it.
    expect((await forum.reply(post.id, { body: "Not for the blocker" }, them.a.headers)).status).toBe(201);
    expect(await lastActivity()).toBe(post.createdAt);
    const seen = (await forum.reply(post.id, { body: "For everyone" }, us.b.headers)).json.data as { createdAt: string };
    expect(await lastActivity()).toBe(seen.createdAt);
    const reported = (await forum.reply(post.id, { body: "Reported" }, loud.a.headers)).json.data as { id: string; createdAt: string };
    expect(await lastActivity()).toBe(reported.createdAt);
    for (const reporter of [us, blocker, await forumCouple()])
      expect((await report({ targetType: "reply", targetId: reported.id, reason: "spam" }, reporter.a.headers)).status).toBe(201);
    expect(await lastActivity()).toBe(seen.createdAt);
  });
});
