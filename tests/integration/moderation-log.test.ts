import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { moderationLog } from "@/db/schema";
import { recordModeration } from "@/lib/safety/moderation-log";
import { forum, forumCouple, postBody } from "../support/forum";
import { messagingCouple } from "../support/messages";
import { moderation, moderatorCouple } from "../support/moderation";

describe("moderation roles", () => {
  it("lets moderators and admins read the queue; members get 403 in the usual error shape", async () => {
    const member = await messagingCouple();
    const { headers: moderator } = await moderatorCouple("moderator");
    const { headers: admin } = await moderatorCouple("admin");
    expect((await moderation.queue(moderator)).status).toBe(200);
    expect((await moderation.queue(admin)).status).toBe(200);
    const refused = await moderation.queue(member.a.headers);
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ error: { code: "FORBIDDEN", message: "Only moderators can do this." } });
    expect((await moderation.log("", member.b.headers)).status).toBe(403);
  });

  it("refuses a moderator's decision on a report of their own couple, and checks CSRF", async () => {
    const { couple: own, headers: moderator } = await moderatorCouple();
    const reporter = await forumCouple();
    const post = (await forum.create(postBody(), own.b.headers)).json.data;
    const filed = (await moderation.report({ targetType: "post", targetId: post.id, reason: "spam" }, reporter.a.headers)).json.data;
    const refused = await moderation.resolve(filed.id, "dismiss", moderator);
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toBe("You cannot act on your own couple. Another moderator will.");
    const { cookie } = moderator;
    expect((await moderation.resolve(filed.id, "dismiss", { cookie: cookie! })).status).toBe(403);
    const { headers: other } = await moderatorCouple();
    expect((await moderation.resolve(filed.id, "dismiss", other)).status).toBe(200);
  });

  it("leaves a target the moderator's own couple reported to another moderator: not in their queue, refused however it is asked", async () => {
    const { couple: own, headers: moderator } = await moderatorCouple();
    const author = await forumCouple();
    const bystander = await forumCouple();
    const post = (await forum.create(postBody(), author.a.headers)).json.data;
    const ours = (await moderation.report({ targetType: "post", targetId: post.id, reason: "spam" }, own.b.headers)).json.data;
    const theirs = (await moderation.report({ targetType: "post", targetId: post.id, reason: "spam" }, bystander.a.headers)).json.data;
    const ids = async (headers: typeof moderator) => (await moderation.queue(headers)).json.data.map((report: { id: string }) => report.id);
    expect(await ids(moderator)).not.toEqual(expect.arrayContaining([ours.id]));
    expect(await ids(moderator)).not.toEqual(expect.arrayContaining([theirs.id]));
    // Through another couple's report of the same post too: deciding it decides theirs.
    for (const id of [ours.id, theirs.id]) {
      const refused = await moderation.resolve(id, "remove", moderator);
      expect(refused.status).toBe(403);
      expect(refused.json.error.message).toBe("You cannot act on your own couple. Another moderator will.");
    }
    // Another moderator's queue has the post once, named by its oldest report: deciding it decides both.
    const { headers: other } = await moderatorCouple();
    expect(await ids(other)).toContain(ours.id);
    expect(await ids(other)).not.toContain(theirs.id);
    expect((await moderation.resolve(theirs.id, "remove", other)).status).toBe(200);
  });

  it("fills a moderator's queue with the reports they may judge, however many older ones are against their own couple", async () => {
    const { couple: own, headers: moderator } = await moderatorCouple();
    const author = await forumCouple();
    const reporter = await forumCouple();
    // More of the own couple's posts reported than the queue's page holds (four reports each), each
    // report by a person of its own, older than any other.
    const db = await getDb();
    const tag = `q${Date.now()}`;
    await db.execute(sql`insert into users (id, email, password_hash, first_name, last_name, date_of_birth, email_verified_at)
      select md5(${tag} || g)::uuid, ${tag} || g || '@example.test', 'x', 'Reporter', 'Last', date '1990-01-01', now()
      from generate_series(1, 120) g`);
    await db.execute(sql`insert into forum_posts (id, author_user_id, couple_id, scope, topic, title, body)
      select md5(${tag} || 'p' || g)::uuid, ${own.a.userId}, ${own.coupleId}, 'global', 'travel', 'Post ' || g, 'Words'
      from generate_series(1, 30) g`);
    await db.execute(sql`insert into reports (reporter_user_id, reporter_couple_id, target_type, target_id, reason, created_at)
      select md5(${tag} || g)::uuid, ${reporter.coupleId}, 'post', md5(${tag} || 'p' || (1 + g % 30))::uuid, 'spam',
        now() - interval '1 day' - g * interval '1 minute'
      from generate_series(1, 120) g`);
    const post = (await forum.create(postBody(), author.a.headers)).json.data;
    const filed = (await moderation.report({ targetType: "post", targetId: post.id, reason: "spam" }, reporter.a.headers)).json.data;
    const queue = (await moderation.queue(moderator)).json.data as { id: string; targetId: string; content: { coupleId: string } }[];
    expect(queue.map((report) => report.id)).toContain(filed.id);
    expect(queue.filter((report) => report.content.coupleId === own.coupleId)).toEqual([]);
    // Another moderator judges them, oldest first: a full page of the own couple's posts, one row each.
    const { headers: other } = await moderatorCouple();
    const theirs = (await moderation.queue(other)).json.data as { reports: number; content: { coupleId: string } }[];
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.length).toBeLessThan(30);
    expect(theirs.every((report) => report.content.coupleId === own.coupleId && report.reports === 4)).toBe(true);
  });
});

describe("the moderation log", () => {
  it("records each report decision with who, what, which couple and item, and why", async () => {
    const author = await forumCouple();
    const reporter = await forumCouple();
    const { headers, userId } = await moderatorCouple();
    const post = (await forum.create(postBody(), author.a.headers)).json.data;
    const filed = (await moderation.report({ targetType: "post", targetId: post.id, reason: "harassment" }, reporter.a.headers)).json.data;
    expect((await moderation.resolve(filed.id, "remove", headers)).status).toBe(200);
    const page = await moderation.log(`?couple=${author.coupleId}`, headers);
    expect(page.status).toBe(200);
    expect(page.json.data).toHaveLength(1);
    expect(page.json.data[0]).toMatchObject({
      action: "report_removed",
      moderator: { userId },
      couple: { id: author.coupleId, coupleName: author.name },
      target: { type: "post", id: post.id },
      reason: "harassment",
    });
  });

  it("filters by moderator, couple and action, newest first, in keyset pages", async () => {
    const db = await getDb();
    const { headers, userId } = await moderatorCouple();
    const { userId: otherModerator } = await moderatorCouple();
    const couple = await messagingCouple();
    for (let i = 0; i < 52; i++)
      await recordModeration(db, {
        moderatorUserId: userId,
        action: i % 2 ? "warn" : "context_viewed",
        coupleId: couple.coupleId,
        note: `n${i}`,
      });
    await recordModeration(db, { moderatorUserId: otherModerator, action: "warn", coupleId: couple.coupleId, note: "other" });

    const first = await moderation.log(`?moderator=${userId}&couple=${couple.coupleId}`, headers);
    expect(first.json.data).toHaveLength(50);
    expect(first.json.data[0].note).toBe("n51");
    expect(first.json.pagination.hasMore).toBe(true);
    const second = await moderation.log(
      `?moderator=${userId}&couple=${couple.coupleId}&cursor=${encodeURIComponent(first.json.pagination.nextCursor)}`,
      headers,
    );
    expect(second.json.data.map((row: { note: string }) => row.note)).toEqual(["n1", "n0"]);
    expect(second.json.pagination).toMatchObject({ hasMore: false, nextCursor: null });

    const warns = await moderation.log(`?couple=${couple.coupleId}&action=warn`, headers);
    expect(warns.json.data).toHaveLength(27);
    expect(warns.json.data[0]).toMatchObject({ note: "other", moderator: { userId: otherModerator } });
    // A cursor from another filter is refused, as is an unknown action.
    expect((await moderation.log(`?action=warn&cursor=${encodeURIComponent(first.json.pagination.nextCursor)}`, headers)).status).toBe(400);
    expect((await moderation.log("?action=erase", headers)).status).toBe(400);
  });

  it("is append-only: the database refuses UPDATE, DELETE and TRUNCATE", async () => {
    const db = await getDb();
    const couple = await messagingCouple();
    await recordModeration(db, { moderatorUserId: null, action: "restrict", coupleId: couple.coupleId, reason: "spam" });
    const refusal = (statement: ReturnType<typeof sql>) =>
      db.execute(statement).then(
        () => "done",
        (error: { cause?: { message?: string } }) => error.cause?.message,
      );
    expect(await refusal(sql`update moderation_log set note = 'rewritten' where couple_id = ${couple.coupleId}`)).toBe(
      "moderation_log is append-only: UPDATE refused",
    );
    expect(await refusal(sql`delete from moderation_log where couple_id = ${couple.coupleId}`)).toBe(
      "moderation_log is append-only: DELETE refused",
    );
    expect(await refusal(sql`truncate moderation_log`)).toBe("moderation_log is append-only: TRUNCATE refused");
    const rows = await db
      .select({ note: moderationLog.note })
      .from(moderationLog)
      .where(sql`${moderationLog.coupleId} = ${couple.coupleId}`);
    expect(rows).toEqual([{ note: null }]);
  });
});
