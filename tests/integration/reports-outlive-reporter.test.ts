import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { forumPosts, reports } from "@/db/schema";
import { deleteAccount } from "@/lib/account/deletion";
import { PASSWORD } from "../support/api";
import { forum, forumCouple, postBody, type Headers, type TestCouple } from "../support/forum";
import { connected } from "../support/messages";
import { moderation, moderatorCouple } from "../support/moderation";
import { daysAhead, PLACES, plan } from "../support/plans";

type QueueEntry = {
  id: string;
  targetId: string;
  reports: number;
  couples: number;
  reporter: { firstName: string };
  notes: { firstName: string; note: string }[];
  notesTotal: number;
  content: { title: string | null; body: string } | null;
};

const queueFor = async (targetId: string, h: Headers): Promise<QueueEntry[]> =>
  (await moderation.queue(h)).json.data.filter((entry: QueueEntry) => entry.targetId === targetId);

const reportRow = async (id: string) => {
  const [row] = await (await getDb()).select().from(reports).where(eq(reports.id, id));
  return row;
};

/** Both partners delete their accounts: the couple goes with the last. */
async function deleteCouple(couple: TestCouple): Promise<void> {
  const db = await getDb();
  await deleteAccount(db, couple.b.userId, PASSWORD);
  await deleteAccount(db, couple.a.userId, PASSWORD);
}

describe("a report outlives its reporter's account (moderators judge what was reported; nothing of the reporter stays)", () => {
  it("the partner who reported leaves: the report stays open, without their name or note, and the moderator decides it", async () => {
    const author = await forumCouple();
    const reporter = await forumCouple();
    const { headers: moderator } = await moderatorCouple();
    const post = (await forum.create(postBody({ title: "Awful title", body: "Awful words" }), author.a.headers)).json.data;
    const filed = await moderation.report(
      { targetType: "post", targetId: post.id, reason: "harassment", note: "They insulted me in the forum" },
      reporter.a.headers,
    );
    expect(filed.status).toBe(201);

    await deleteAccount(await getDb(), reporter.a.userId, PASSWORD);

    const row = await reportRow(filed.json.data.id);
    expect(row).toMatchObject({
      status: "open",
      reporterUserId: null,
      note: null,
      // The couple stays with the partner who stays: the rules that count couples, and the one that
      // leaves its moderators out of its reports, still know it.
      reporterCoupleId: reporter.coupleId,
      reportedTitle: "Awful title",
      reportedBody: "Awful words",
    });
    expect(JSON.stringify(row)).not.toContain(reporter.a.userId);

    const [entry] = await queueFor(post.id, moderator);
    expect(entry).toMatchObject({
      id: filed.json.data.id,
      reports: 1,
      couples: 1,
      reporter: { firstName: "Deleted member" },
      notes: [],
      notesTotal: 0,
      content: { title: "Awful title", body: "Awful words" },
    });
    expect(JSON.stringify(entry)).not.toContain(reporter.a.firstName);
    expect((await moderation.resolve(filed.json.data.id, "remove", moderator)).status).toBe(200);
    const [removed] = await (await getDb()).select({ removedAt: forumPosts.removedAt }).from(forumPosts).where(eq(forumPosts.id, post.id));
    expect(removed!.removedAt).not.toBeNull();
    // Reviewed, it stays anonymised: the reported couple's record still counts it.
    expect(await reportRow(filed.json.data.id)).toMatchObject({ status: "removed", reporterUserId: null, note: null });
  });

  it("the reporting couple goes with its last partner: its report still counts once among the couples that hide a post", async () => {
    const author = await forumCouple();
    const gone = await forumCouple();
    const second = await forumCouple();
    const third = await forumCouple();
    const { headers: moderator } = await moderatorCouple();
    const post = (await forum.create(postBody({ body: "Hateful words" }), author.a.headers)).json.data;
    const first = await moderation.report({ targetType: "post", targetId: post.id, reason: "harassment", note: "Hateful" }, gone.a.headers);
    expect(first.status).toBe(201);
    await deleteCouple(gone);

    const row = await reportRow(first.json.data.id);
    expect(row).toMatchObject({ status: "open", reporterUserId: null, reporterCoupleId: null, note: null, reportedBody: "Hateful words" });
    for (const id of [gone.a.userId, gone.b.userId, gone.coupleId]) expect(JSON.stringify(row)).not.toContain(id);

    const hiddenAt = async () =>
      (await (await getDb()).select({ hiddenAt: forumPosts.hiddenAt }).from(forumPosts).where(eq(forumPosts.id, post.id)))[0]!.hiddenAt;
    await moderation.report({ targetType: "post", targetId: post.id, reason: "harassment" }, second.a.headers);
    expect(await hiddenAt()).toBeNull();
    // The third couple: the anonymised report, the second's and this one are three couples.
    await moderation.report({ targetType: "post", targetId: post.id, reason: "harassment" }, third.a.headers);
    expect(await hiddenAt()).not.toBeNull();

    const [entry] = await queueFor(post.id, moderator);
    expect(entry).toMatchObject({ id: first.json.data.id, reports: 3, couples: 3, reporter: { firstName: "Deleted member" } });
    expect((await moderation.resolve(first.json.data.id, "dismiss", moderator)).status).toBe(200);
    expect(await hiddenAt()).toBeNull();
    expect(await queueFor(post.id, moderator)).toEqual([]);
  });

  it("a plan's report whose couple is gone still names the other couple, and is decided", async () => {
    const { one, two, conversationId } = await connected();
    const { headers: moderator } = await moderatorCouple();
    const made = (
      await plan.propose(
        conversationId,
        { title: "Dinner", startsAt: daysAhead(20), placeId: PLACES.lisbon, venue: "Time Out Market" },
        two.a.headers,
      )
    ).json.data;
    const filed = await moderation.report({ targetType: "plan", targetId: made.id, reason: "harassment" }, one.a.headers);
    expect(filed.status).toBe(201);
    await deleteCouple(one);

    expect(await reportRow(filed.json.data.id)).toMatchObject({ status: "open", reporterUserId: null, reporterCoupleId: null });
    const [entry] = await queueFor(made.id, moderator);
    expect(entry).toMatchObject({ id: filed.json.data.id, content: { coupleId: two.coupleId } });
    expect((await moderation.resolve(filed.json.data.id, "dismiss", moderator)).status).toBe(200);
    expect(await reportRow(filed.json.data.id)).toMatchObject({ status: "dismissed" });
  });
});
