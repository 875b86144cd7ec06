import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { coupleSanctions, forumPosts, moderationLog, sessions, users } from "@/db/schema";
import { createSession } from "@/lib/auth/sessions";
import { forum, forumCouple, postBody, type TestCouple } from "../support/forum";
import { POST as changeEmailRoute } from "@/app/api/auth/change-email/route";
import { POST as confirmEmailRoute } from "@/app/api/auth/confirm-email/route";
import { isBannedEmail } from "@/lib/safety/sanctions";
import { PASSWORD, call } from "../support/api";
import { linkInLatestMail } from "../support/flows";
import { connected, connections, messagingCouple, talk } from "../support/messages";
import { appeals, moderation, moderatorCouple, sanctions } from "../support/moderation";
import { lockWaits, nextWhileWaiting, waitsOn, whileHeld } from "../support/lock-race";
import { daysAhead, plan, PLACES } from "../support/plans";
import { onPostgres } from "../support/test-database";

type Answer = { status: number; json: { data?: { id: string }; error?: { code: string; message: string } } };

const statuses = (answers: Answer[]) => answers.map((answer) => answer.status).sort();

/** A couple restricted by one moderator (`actor`), its appeal filed, and another moderator (`other`) to decide it. */
async function appealedRestriction() {
  const couple = await messagingCouple();
  const { headers: actor } = await moderatorCouple();
  const { headers: other } = await moderatorCouple();
  const sanctionId = (await sanctions.act(couple.coupleId, { kind: "restrict", reason: "spam", days: 7 }, actor)).json.data.id as string;
  const appealId = (await appeals.file({ sanctionId, body: "Not us" }, couple.a.headers)).json.data.id as string;
  return { couple, actor, other, sanctionId, appealId };
}

async function logOf(where: ReturnType<typeof and>) {
  const db = await getDb();
  return db.select({ action: moderationLog.action }).from(moderationLog).where(where);
}

describe.skipIf(!onPostgres())("reports at one instant", () => {
  it("the third couple's report hides the post while the second's is still being filed", async () => {
    const author = await forumCouple();
    const [first, second, third] = [await forumCouple(), await forumCouple(), await forumCouple()];
    const post = (await forum.create(postBody(), author.a.headers)).json.data as { id: string };
    const body = { targetType: "post", targetId: post.id, reason: "spam" };
    expect((await moderation.report(body, first.a.headers)).status).toBe(201);
    // The second couple's report, filed as reportTarget files it, counted (two couples) but not yet committed.
    const [filed] = await whileHeld(
      async (tx) => {
        await tx`select id from forum_posts where id = ${post.id} for update`;
        await tx`insert into reports (reporter_user_id, reporter_couple_id, target_type, target_id, reason)
          values (${second.a.userId}, ${second.coupleId}, 'post', ${post.id}, 'spam')`;
      },
      [() => moderation.report(body, third.a.headers)],
    );
    expect(filed!.status).toBe(201);
    const db = await getDb();
    const [row] = await db.select({ hiddenAt: forumPosts.hiddenAt }).from(forumPosts).where(eq(forumPosts.id, post.id));
    expect(row!.hiddenAt, "three couples reported the post: it is hidden").not.toBeNull();
  });

  it("a couple reported by its third and fourth couple at once is restricted once", async () => {
    const reported = await messagingCouple();
    const reporters: TestCouple[] = [];
    for (let i = 0; i < 4; i++) reporters.push(await messagingCouple());
    // Its hellos to them: a report of the couple counts from a couple it wrote to (the spam rule).
    for (const couple of reporters)
      expect((await connections.send({ coupleId: couple.coupleId, note: "Hi" }, reported.a.headers)).status).toBe(201);
    const report = (couple: TestCouple) =>
      moderation.report({ targetType: "couple", targetId: reported.coupleId, reason: "harassment" }, couple.a.headers);
    for (const couple of reporters.slice(0, 2)) expect((await report(couple)).status).toBe(201);
    const answers = await whileHeld(
      (tx) => tx`select id from couples where id = ${reported.coupleId} for update`,
      reporters.slice(2).map((couple) => () => report(couple)),
    );
    expect(statuses(answers)).toEqual([201, 201]);
    const db = await getDb();
    const standing = await db
      .select({ id: coupleSanctions.id })
      .from(coupleSanctions)
      .where(and(eq(coupleSanctions.coupleId, reported.coupleId), eq(coupleSanctions.kind, "restrict"), isNull(coupleSanctions.liftedAt)));
    expect(standing, "one restriction, one notice").toHaveLength(1);
  });

  it("two couples reporting each other at one instant never wait on each other (no deadlock, no retry)", async () => {
    const [one, two] = [await messagingCouple(), await messagingCouple()];
    // The second couple's report of the first, filed as reportTarget files it: its insert holds its own couple's key-share lock.
    const { waited, answer } = await waitsOn(
      (tx) => tx`insert into reports (reporter_user_id, reporter_couple_id, target_type, target_id, reason)
        values (${two.a.userId}, ${two.coupleId}, 'couple', ${one.coupleId}, 'harassment')`,
      () => moderation.report({ targetType: "couple", targetId: two.coupleId, reason: "harassment" }, one.a.headers),
    );
    expect(answer.status).toBe(201);
    expect(waited, "the first couple's report waited on the second's, which would next wait on it").toBe(false);
  });
});

describe.skipIf(!onPostgres())("two moderators at one instant", () => {
  it("lifting the same action: one lifts it, the other is told it was already lifted (404)", async () => {
    const couple = await messagingCouple();
    const { headers: one } = await moderatorCouple();
    const { headers: two } = await moderatorCouple();
    const sanctionId = (await sanctions.act(couple.coupleId, { kind: "restrict", reason: "spam", days: 7 }, one)).json.data.id as string;
    const answers = await whileHeld(
      (tx) => tx`select id from couples where id = ${couple.coupleId} for update`,
      [() => sanctions.lift(sanctionId, { reason: "Reviewed" }, one), () => sanctions.lift(sanctionId, { reason: "Reviewed too" }, two)],
    );
    expect(statuses(answers)).toEqual([200, 404]);
    expect(answers.find((answer) => answer.status === 404)!.json.error!.message).toBe("This action does not exist or was already lifted.");
    expect(await logOf(and(eq(moderationLog.coupleId, couple.coupleId), eq(moderationLog.action, "lift")))).toHaveLength(1);
  });

  it("lifting an action while its appeal is granted: lifted once, the appeal decided either way", async () => {
    const { couple, actor, other, sanctionId, appealId } = await appealedRestriction();
    const answers = await whileHeld(
      (tx) => tx`select id from couples where id = ${couple.coupleId} for update`,
      [() => sanctions.lift(sanctionId, { reason: "Reviewed" }, actor), () => appeals.decide(appealId, "grant", other)],
    );
    // The grant decides the appeal whichever goes first; a lift after it finds the action lifted (404).
    const [lift, grant] = answers;
    expect(grant!.status).toBe(200);
    expect(lift!.status).toBeOneOf([200, 404]);
    const lifts = await logOf(and(eq(moderationLog.coupleId, couple.coupleId), eq(moderationLog.targetType, "sanction")));
    expect(lifts).toHaveLength(1);
    expect((await appeals.open(other)).json.data.map((appeal: { id: string }) => appeal.id)).not.toContain(appealId);
  });

  it("deciding two reports of the same post: one decides, the other finds its report reviewed (404)", async () => {
    const author = await forumCouple();
    const [first, second] = [await forumCouple(), await forumCouple()];
    const post = (await forum.create(postBody(), author.a.headers)).json.data as { id: string };
    const body = { targetType: "post", targetId: post.id, reason: "spam" };
    const reportIds = [
      (await moderation.report(body, first.a.headers)).json.data.id as string,
      (await moderation.report(body, second.a.headers)).json.data.id as string,
    ];
    const { headers: one } = await moderatorCouple();
    const { headers: two } = await moderatorCouple();
    const answers = await whileHeld(
      (tx) => tx`select id from reports where target_type = 'post' and target_id = ${post.id} for update`,
      [() => moderation.resolve(reportIds[0]!, "remove", one), () => moderation.resolve(reportIds[1]!, "dismiss", two)],
    );
    expect(statuses(answers)).toEqual([200, 404]);
    expect(answers.find((answer) => answer.status === 404)!.json.error!.message).toBe(
      "This report does not exist or was already reviewed.",
    );
    expect(
      await logOf(and(eq(moderationLog.targetId, post.id), inArray(moderationLog.action, ["report_dismissed", "report_removed"]))),
    ).toHaveLength(1);
  });

  it("acting on a couple from a report another moderator decides at one instant: one decision stands, the other finds the report reviewed (404)", async () => {
    const reported = await messagingCouple();
    const reporter = await messagingCouple();
    const reportId = (
      await moderation.report({ targetType: "couple", targetId: reported.coupleId, reason: "harassment" }, reporter.a.headers)
    ).json.data.id as string;
    const { headers: one } = await moderatorCouple();
    const { headers: two } = await moderatorCouple();
    const answers = await whileHeld(
      (tx) => tx`select id from reports where id = ${reportId} for update`,
      [
        () => moderation.resolve(reportId, "dismiss", one),
        () => sanctions.act(reported.coupleId, { kind: "suspend", reason: "harassment", reportId }, two),
      ],
    );
    expect(answers.filter((answer) => answer.status === 404)).toHaveLength(1);
    expect(answers.find((answer) => answer.status === 404)!.json.error!.message).toBe(
      "This report does not exist or was already reviewed.",
    );
    const decisions = await logOf(
      and(eq(moderationLog.coupleId, reported.coupleId), inArray(moderationLog.action, ["report_dismissed", "suspend"])),
    );
    expect(decisions).toHaveLength(1);
  });
  it("dismissing a report of a couple the spam rule restricted waits for an action on that couple before it takes the report (no deadlock)", async () => {
    const reported = await messagingCouple();
    const reporters: TestCouple[] = [];
    for (let i = 0; i < 3; i++) reporters.push(await messagingCouple());
    // Its hellos to them: their reports of the couple count for the spam rule, which restricts it at the third.
    for (const couple of reporters)
      expect((await connections.send({ coupleId: couple.coupleId, note: "Hi" }, reported.a.headers)).status).toBe(201);
    const reportIds: string[] = [];
    for (const couple of reporters)
      reportIds.push(
        (await moderation.report({ targetType: "couple", targetId: reported.coupleId, reason: "harassment" }, couple.a.headers)).json.data
          .id as string,
      );
    const { headers: moderator } = await moderatorCouple();
    const { waited, answer } = await nextWhileWaiting(
      // What an action on the couple from that report takes first (lib/safety/sanctions.ts lockedCouple)...
      (tx) => tx`select id from couples where id = ${reported.coupleId} for no key update`,
      () => moderation.resolve(reportIds[0]!, "dismiss", moderator),
      // ...then the report it is taken from (reportActedFrom). NOWAIT: it fails if the dismissal holds it.
      (tx) => tx`select id from reports where id = ${reportIds[0]!} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });

  it("one moderator's action sent twice at once (a double click, a retry) is taken, logged and told once", async () => {
    const couple = await messagingCouple();
    const { headers, userId } = await moderatorCouple();
    const body = { kind: "restrict", reason: "spam", days: 7, note: "Same links everywhere" };
    const answers = await whileHeld(
      (tx) => tx`select id from couples where id = ${couple.coupleId} for update`,
      [() => sanctions.act(couple.coupleId, body, headers), () => sanctions.act(couple.coupleId, body, headers)],
    );
    expect(statuses(answers)).toEqual([201, 201]);
    expect(answers[0]!.json.data!.id, "both answer the one action").toBe(answers[1]!.json.data!.id);
    const db = await getDb();
    const taken = await db.select({ id: coupleSanctions.id }).from(coupleSanctions).where(eq(coupleSanctions.coupleId, couple.coupleId));
    expect(taken, "one action").toHaveLength(1);
    expect(
      await logOf(and(eq(moderationLog.coupleId, couple.coupleId), eq(moderationLog.moderatorUserId, userId))),
      "logged once",
    ).toHaveLength(1);
    // Another decision a moment later is its own action.
    expect((await sanctions.act(couple.coupleId, { ...body, days: 30 }, headers)).status).toBe(201);
    expect(
      await db.select({ id: coupleSanctions.id }).from(coupleSanctions).where(eq(coupleSanctions.coupleId, couple.coupleId)),
    ).toHaveLength(2);
  });
});

describe.skipIf(!onPostgres())("a moderator's decision beside the reported author's account deletion at one instant", () => {
  it("removing their message waits for the deletion holding the author's row before it takes the message's reports (no deadlock)", async () => {
    const { one: author, two: reporter, conversationId } = await connected();
    const sent = (await talk.send(conversationId, { body: "Buy my course" }, author.a.headers)).json.data as { id: string };
    const reportId = (await moderation.report({ targetType: "message", targetId: sent.id, reason: "spam" }, reporter.a.headers)).json.data
      .id as string;
    const { headers } = await moderatorCouple();
    const { waited, answer } = await nextWhileWaiting(
      // What a deletion takes first, and next erases (lib/account/deletion.ts: their row, their messages)...
      async (tx) => {
        await tx`select id from users where id = ${author.a.userId} for update`;
        await tx`select id from messages where id = ${sent.id} for update`;
      },
      () => moderation.resolve(reportId, "remove", headers),
      // ...then the copies kept with the message's reports (eraseReportedWordsOf). NOWAIT: it fails if the decision holds them.
      (tx) => tx`select id from reports where target_type = 'message' and target_id = ${sent.id} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });
});

describe.skipIf(!onPostgres())("a moderator's action beside a partner's own writes at one instant", () => {
  it("a partner deleting their account or saving their profile holds their row: the action waits for it before it takes the couple (no deadlock)", async () => {
    const couple = await messagingCouple();
    const { headers: moderator } = await moderatorCouple();
    const { waited, answer } = await nextWhileWaiting(
      // What a deletion or a profile save takes first (lib/account/deletion.ts, lib/profile/service.ts)...
      (tx) => tx`select id from users where id = ${couple.b.userId} for update`,
      () => sanctions.act(couple.coupleId, { kind: "restrict", reason: "spam", days: 7 }, moderator),
      // ...and next. NOWAIT: it fails if the action holds the couple while it waits on the partner's row.
      (tx) => tx`select id from couples where id = ${couple.coupleId} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(201);
  });

  it("a suspension beside the other couple's account deletion: it waits for that person before taking the plans it cancels (no deadlock)", async () => {
    const { one, two, conversationId } = await connected();
    const made = (await plan.propose(conversationId, { title: "Dinner", startsAt: daysAhead(3), placeId: PLACES.lisbon }, one.a.headers))
      .json.data as { id: string };
    const { headers: moderator } = await moderatorCouple();
    const { waited, answer } = await nextWhileWaiting(
      // What the other couple's partner's deletion takes first (lib/account/deletion.ts: their row)...
      (tx) => tx`select id from users where id = ${two.a.userId} for update`,
      () => sanctions.act(one.coupleId, { kind: "suspend", reason: "hate" }, moderator),
      // ...then their couple's upcoming plans it cancels (cancelPlansOfCouple). NOWAIT: it fails if the suspension holds the plan.
      (tx) => tx`select id from plans where id = ${made.id} for no key update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(201);
  });

  it("a partner signing in while their couple is suspended gets no session: the sign-in waits for the suspension, then is refused", async () => {
    const couple = await messagingCouple();
    const db = await getDb();
    // The password checked and the couple still active (authenticate), then a suspension as sanctionCouple makes it.
    const [signIn] = await whileHeld(
      async (tx) => {
        await tx`select id from couples where id = ${couple.coupleId} for no key update`;
        await tx`update couples set status = 'suspended' where id = ${couple.coupleId}`;
        await tx`update sessions set revoked_at = now() where user_id in (${couple.a.userId}, ${couple.b.userId}) and revoked_at is null`;
      },
      [
        () =>
          createSession(db, couple.a.userId, "browser").then(
            (id) => id,
            (error: { code?: string }) => error.code,
          ),
      ],
    );
    expect(signIn).toBe("ACCOUNT_SUSPENDED");
    const live = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(inArray(sessions.userId, [couple.a.userId, couple.b.userId]), isNull(sessions.revokedAt)));
    expect(live, "no session of the suspended couple's partners is live").toEqual([]);
  });

  it("a partner confirming a new address while their couple is banned: the change waits for the ban, then is refused (the ban keeps the address they have)", async () => {
    const { one: couple, conversationId } = await connected();
    const { headers: moderator } = await moderatorCouple();
    const newEmail = `moved-${randomUUID()}@example.com`;
    const headers = couple.a.headers;
    const asked = await call(changeEmailRoute, "POST", "/api/auth/change-email", { body: { password: PASSWORD, newEmail }, headers });
    expect(asked.status).toBe(200);
    const token = (await linkInLatestMail(newEmail)).searchParams.get("token")!;
    // The ban held once it has read and hashed the partners' addresses (ending their conversation is next), the link used meanwhile.
    const [banned, confirmed] = await whileHeld<Answer>(
      (tx) => tx`select id from conversations where id = ${conversationId} for update`,
      [
        () => sanctions.act(couple.coupleId, { kind: "ban", reason: "spam" }, moderator),
        async () => {
          await lockWaits(1);
          return call(confirmEmailRoute, "POST", "/api/auth/confirm-email", { body: { token }, headers });
        },
      ],
    );
    expect(banned!.status).toBe(201);
    expect(confirmed!.json.error?.code).toBe("ACCOUNT_SUSPENDED");
    const db = await getDb();
    const [person] = await db.select({ email: users.email }).from(users).where(eq(users.id, couple.a.userId));
    expect(await isBannedEmail(db, person!.email), "the partner's address is the banned one").toBe(true);
  });

  it("a partner deleting their account holds their row: granting the couple's appeal waits for it before it takes the appeal (no deadlock)", async () => {
    const { couple, other, appealId } = await appealedRestriction();
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${couple.b.userId} for update`,
      () => appeals.decide(appealId, "grant", other),
      // A deletion then takes the couple and the couple's appeals go with it: both free while the grant waits.
      (tx) => tx`select id from moderation_appeals where id = ${appealId} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });
});
