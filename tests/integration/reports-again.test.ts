import { describe, expect, it } from "vitest";
import { forum, forumCouple, postBody, type Headers } from "../support/forum";
import { moderation, moderatorCouple } from "../support/moderation";

const queueFor = async (targetId: string, h: Headers): Promise<{ id: string }[]> =>
  (await moderation.queue(h)).json.data.filter((entry: { targetId: string }) => entry.targetId === targetId);

describe("reporting again after a review", () => {
  it("a dismissed report leaves the person free to report again (201, a new open report); while open, 409", async () => {
    const author = await forumCouple();
    const reporter = await forumCouple();
    const { headers: moderator } = await moderatorCouple();
    const post = (await forum.create(postBody({ body: "Spammy words" }), author.a.headers)).json.data;
    const body = { targetType: "post", targetId: post.id, reason: "spam" };
    expect((await moderation.report(body, reporter.a.headers)).status).toBe(201);
    const [first] = await queueFor(post.id, moderator);
    expect((await moderation.resolve(first!.id, "dismiss", moderator)).status).toBe(200);

    const again = await moderation.report({ ...body, reason: "harassment" }, reporter.a.headers);
    expect(again.status).toBe(201);
    const queue = await queueFor(post.id, moderator);
    expect(queue.map((entry) => entry.id)).toEqual([again.json.data.id]);
    expect((await moderation.report(body, reporter.a.headers)).json.error.code).toBe("ALREADY_REPORTED");
  });

  it("hides only by the couples whose reports are open: a dismissed report counts no more", async () => {
    const author = await forumCouple();
    const reader = await forumCouple();
    const reporters = [await forumCouple(), await forumCouple(), await forumCouple()];
    const { headers: moderator } = await moderatorCouple();
    const post = (await forum.create(postBody(), author.a.headers)).json.data;
    const body = { targetType: "post", targetId: post.id, reason: "spam" };
    for (const couple of reporters) await moderation.report(body, couple.a.headers);
    expect((await forum.thread(post.id, reader.a.headers)).status).toBe(404);
    await moderation.resolve((await queueFor(post.id, moderator))[0]!.id, "dismiss", moderator);
    expect((await forum.thread(post.id, reader.a.headers)).status).toBe(200);

    // Two couples report again: two open, shown; the third again hides it.
    for (const couple of reporters.slice(0, 2)) expect((await moderation.report(body, couple.a.headers)).status).toBe(201);
    expect((await forum.thread(post.id, reader.a.headers)).status).toBe(200);
    await moderation.report(body, reporters[2]!.a.headers);
    expect((await forum.thread(post.id, reader.a.headers)).status).toBe(404);
  });
});
