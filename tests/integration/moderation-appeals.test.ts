import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { coupleSanctions, notifications, users } from "@/db/schema";
import { APPEAL_TEXTS, ownStanding } from "@/lib/safety/appeals";
import { appealRefusedNotice } from "@/lib/safety/rules";
import { PASSWORD } from "../support/api";
import { forum, postBody } from "../support/forum";
import { messagingCouple } from "../support/messages";
import { appeals, moderation, moderatorCouple, sanctions } from "../support/moderation";

/** A couple's appeal of a restriction the moderator who imposed it has lifted since; `other`, another moderator, decides it. */
async function appealOfLiftedRestriction() {
  const couple = await messagingCouple();
  const { headers: actor } = await moderatorCouple();
  const { headers: other } = await moderatorCouple();
  const sanctionId = (await sanctions.act(couple.coupleId, { kind: "restrict", reason: "spam", days: 7 }, actor)).json.data.id;
  const filed = (await appeals.file({ sanctionId, body: "We did not" }, couple.a.headers)).json.data;
  expect((await sanctions.lift(sanctionId, { reason: "Reviewed" }, actor)).status).toBe(200);
  return { couple, other, filed };
}

describe("appeals", () => {
  it("once per action, 1-1,000 characters, only by the couple; in the queue; decided by a moderator who did not act", async () => {
    const couple = await messagingCouple();
    const stranger = await messagingCouple();
    const { headers: actor } = await moderatorCouple();
    const { headers: other } = await moderatorCouple();
    const sanctionId = (await sanctions.act(couple.coupleId, { kind: "restrict", reason: "spam", days: 30 }, actor)).json.data.id;

    expect((await appeals.file({ sanctionId, body: "" }, couple.a.headers)).status).toBe(400);
    expect((await appeals.file({ sanctionId, body: "x".repeat(1001) }, couple.a.headers)).status).toBe(400);
    expect((await appeals.file({ sanctionId, body: "Not us" }, stranger.a.headers)).status).toBe(404);
    const filed = await appeals.file({ sanctionId, body: "x".repeat(1000) }, couple.a.headers);
    expect(filed.status).toBe(201);
    expect((await appeals.file({ sanctionId, body: "Again" }, couple.b.headers)).status).toBe(409);

    expect((await appeals.open(couple.a.headers)).status).toBe(403);
    const queued = (await appeals.open(other)).json.data.find((a: { id: string }) => a.id === filed.json.data.id);
    expect(queued).toMatchObject({ sanction: { id: sanctionId, kind: "restrict" }, couple: { id: couple.coupleId } });

    const self = await appeals.decide(filed.json.data.id, "grant", actor);
    expect(self.status).toBe(403);
    expect(self.json.error.message).toBe("Another moderator decides this appeal: you took the action.");
    expect((await appeals.decide(filed.json.data.id, "grant", other)).status).toBe(200);
    expect((await appeals.decide(filed.json.data.id, "refuse", other)).status).toBe(404);
    expect((await forum.create(postBody(), couple.a.headers)).status).toBe(201);
    const log = await moderation.log(`?couple=${couple.coupleId}&action=appeal_decided`, other);
    expect(log.json.data).toHaveLength(1);
  });

  it("never shows a moderator their own couple's appeal (nor who acted on it); another moderator has it", async () => {
    const { couple: theirs, headers: moderatorOfIt } = await moderatorCouple();
    const { headers: actor } = await moderatorCouple();
    const sanctionId = (await sanctions.act(theirs.coupleId, { kind: "warn", reason: "spam" }, actor)).json.data.id;
    const filed = (await appeals.file({ sanctionId, body: "We did not" }, theirs.b.headers)).json.data;
    const ids = async (h: typeof actor) => (await appeals.open(h)).json.data.map((appeal: { id: string }) => appeal.id);
    expect(await ids(moderatorOfIt)).not.toContain(filed.id);
    expect(await ids(actor)).toContain(filed.id);
  });

  it("never shows a moderator the appeal of a couple their own couple reported, as deciding it is refused; another moderator has it", async () => {
    const couple = await messagingCouple();
    const { couple: own, headers: reporting } = await moderatorCouple();
    const { headers: actor } = await moderatorCouple();
    const sanctionId = (await sanctions.act(couple.coupleId, { kind: "warn", reason: "spam" }, actor)).json.data.id;
    const filed = (await appeals.file({ sanctionId, body: "We did not" }, couple.b.headers)).json.data;
    // The moderator's partner reports the couple's post: the couple is another moderator's to act on.
    const post = (await forum.create(postBody(), couple.a.headers)).json.data;
    expect((await moderation.report({ targetType: "post", targetId: post.id, reason: "spam" }, own.b.headers)).status).toBe(201);
    const ids = async (h: typeof actor) => (await appeals.open(h)).json.data.map((appeal: { id: string }) => appeal.id);
    expect(await ids(reporting)).not.toContain(filed.id);
    expect((await appeals.decide(filed.id, "grant", reporting)).status).toBe(403);
    expect(await ids(actor)).toContain(filed.id);
  });

  it("granting an appeal whose action a moderator lifted meanwhile decides it, and logs it: none is left half-decided", async () => {
    const { couple, other, filed } = await appealOfLiftedRestriction();
    expect((await appeals.decide(filed.id, "grant", other)).status).toBe(200);
    expect((await appeals.open(other)).json.data.map((appeal: { id: string }) => appeal.id)).not.toContain(filed.id);
    const log = await moderation.log(`?couple=${couple.coupleId}&action=appeal_decided`, other);
    expect(log.json.data).toHaveLength(1);
    expect((await forum.create(postBody(), couple.a.headers)).status).toBe(201);
  });

  it("refusing an appeal whose action a moderator lifted meanwhile is refused: the couple is never told a lifted action stands", async () => {
    const { couple, other, filed } = await appealOfLiftedRestriction();
    const refused = await appeals.decide(filed.id, "refuse", other);
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toBe(APPEAL_TEXTS.lifted);
    const db = await getDb();
    const told = await db
      .select({ title: notifications.title })
      .from(notifications)
      .where(and(eq(notifications.userId, couple.a.userId), eq(notifications.title, appealRefusedNotice("restrict").title)));
    expect(told).toEqual([]);
    expect((await appeals.decide(filed.id, "grant", other)).status).toBe(200);
  });

  it("a restriction that ended after its appeal is neither refused nor lifted: nobody is told it stands or was lifted", async () => {
    const couple = await messagingCouple();
    const { headers: actor } = await moderatorCouple();
    const { headers: other } = await moderatorCouple();
    // Three guidelines: the same action sent again at once is the one taken.
    const act = async (reason: string) =>
      (await sanctions.act(couple.coupleId, { kind: "restrict", reason, days: 7 }, actor)).json.data.id as string;
    const refused = await act("spam");
    const granted = await act("hate");
    const lifted = await act("harassment");
    const refusedAppeal = (await appeals.file({ sanctionId: refused, body: "Not us" }, couple.a.headers)).json.data;
    const grantedAppeal = (await appeals.file({ sanctionId: granted, body: "Not us" }, couple.b.headers)).json.data;
    const db = await getDb();
    // Their days are over (the clock moved on): the restrictions no longer stand.
    await db
      .update(coupleSanctions)
      .set({ endsAt: new Date(Date.now() - 60_000) })
      .where(inArray(coupleSanctions.id, [refused, granted, lifted]));
    const told = async () =>
      (
        await db
          .select({ id: notifications.id })
          .from(notifications)
          .where(inArray(notifications.userId, [couple.a.userId, couple.b.userId]))
      ).length;
    const before = await told();

    const refusal = await appeals.decide(refusedAppeal.id, "refuse", other);
    expect(refusal.status).toBe(400);
    expect(refusal.json.error.message).toBe(APPEAL_TEXTS.endedMeanwhile);
    const lift = await sanctions.lift(lifted, { reason: "Reviewed" }, actor);
    expect(lift.status).toBe(400);
    expect(lift.json.error.message).toBe("This action has already ended: there is nothing left to lift.");
    // Granting decides the appeal (none is left in the queue), lifting nothing.
    expect((await appeals.decide(grantedAppeal.id, "grant", other)).status).toBe(200);
    expect((await appeals.open(other)).json.data.map((appeal: { id: string }) => appeal.id)).not.toContain(grantedAppeal.id);

    expect(await told()).toBe(before);
    const rows = await db
      .select({ liftedAt: coupleSanctions.liftedAt })
      .from(coupleSanctions)
      .where(inArray(coupleSanctions.id, [refused, granted, lifted]));
    expect(rows.map((row) => row.liftedAt)).toEqual([null, null, null]);
  });

  it("a refused appeal leaves the action standing, and the couple is told", async () => {
    const couple = await messagingCouple();
    const { headers: actor } = await moderatorCouple();
    const { headers: other } = await moderatorCouple();
    const sanctionId = (await sanctions.act(couple.coupleId, { kind: "restrict", reason: "hate", days: 7 }, actor)).json.data.id;
    const filed = await appeals.file({ sanctionId, body: "Please" }, couple.b.headers);
    expect((await appeals.decide(filed.json.data.id, "refuse", other)).status).toBe(200);
    expect((await forum.create(postBody(), couple.a.headers)).status).toBe(403);
  });

  it("only an action still in force is appealed: a restriction that ended or one lifted is refused, and not offered", async () => {
    const couple = await messagingCouple();
    const { headers: actor } = await moderatorCouple();
    const act = async (days: number) =>
      (await sanctions.act(couple.coupleId, { kind: "restrict", reason: "spam", days }, actor)).json.data.id as string;
    const ended = await act(1);
    const lifted = await act(7);
    const standing = await act(30);
    const db = await getDb();
    // Its day is over (the clock moved on): the restriction no longer stands.
    await db
      .update(coupleSanctions)
      .set({ endsAt: new Date(Date.now() - 60_000) })
      .where(eq(coupleSanctions.id, ended));
    expect((await sanctions.lift(lifted, { reason: "Reviewed" }, actor)).status).toBe(200);

    const endedAppeal = await appeals.file({ sanctionId: ended, body: "It is over" }, couple.a.headers);
    expect(endedAppeal.status).toBe(400);
    expect(endedAppeal.json.error.message).toBe(APPEAL_TEXTS.ended);
    const liftedAppeal = await appeals.file({ sanctionId: lifted, body: "It was lifted" }, couple.a.headers);
    expect(liftedAppeal.status).toBe(400);
    expect(liftedAppeal.json.error.message).toBe(APPEAL_TEXTS.lifted);
    expect((await appeals.file({ sanctionId: standing, body: "Not us" }, couple.a.headers)).status).toBe(201);
    // What /safety/appeal offers its form for: the one still standing alone.
    const offered = await ownStanding(db, couple.coupleId);
    expect(Object.fromEntries(offered.map((action) => [action.id, action.standing]))).toEqual({
      [ended]: false,
      [lifted]: false,
      [standing]: true,
    });
  });

  it("a suspended partner appeals signed out, with their e-mail and password; a wrong password is refused", async () => {
    const couple = await messagingCouple();
    const { headers: actor } = await moderatorCouple();
    await sanctions.act(couple.coupleId, { kind: "suspend", reason: "harassment" }, actor);
    const db = await getDb();
    const [row] = await db
      .select({ email: users.email })
      .from(users)
      .where(inArray(users.id, [couple.a.userId]));
    expect((await appeals.suspended({ email: row!.email, password: "wrong-Password1", body: "Please" })).status).toBe(401);
    const filed = await appeals.suspended({ email: row!.email, password: PASSWORD, body: "We were hacked" });
    expect(filed.status).toBe(201);
    expect((await appeals.suspended({ email: row!.email, password: PASSWORD, body: "Again" })).status).toBe(409);
    const member = await messagingCouple();
    const [free] = await db.select({ email: users.email }).from(users).where(eq(users.id, member.a.userId));
    expect((await appeals.suspended({ email: free!.email, password: PASSWORD, body: "Hi" })).status).toBe(404);
  });
});
