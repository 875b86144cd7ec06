import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { connectionRequests, forumPosts, forumReplies, plans } from "@/db/schema";
import { forum, forumCouple, postBody } from "../support/forum";
import { nextWhileWaiting, whileHeld } from "../support/lock-race";
import { connected, connections, messagingCouple } from "../support/messages";
import { restricting } from "../support/moderation";
import { daysAhead, PLACES, plan } from "../support/plans";
import { onPostgres } from "../support/test-database";

/**
 * Each write a restriction withholds (a hello, a post or reply and their edits, a plan's words),
 * started while a moderator's restriction of its couple is being made: it waits for the
 * restriction and is refused (403 ACCOUNT_RESTRICTED), never landing just after it. The message's
 * own are in messages-concurrency.test.ts.
 */

const refused = (answer: { status: number; json: { error?: { code: string } } } | undefined) => {
  expect(answer!.status).toBe(403);
  expect(answer!.json.error?.code).toBe("ACCOUNT_RESTRICTED");
};

const dinner = (extra: Record<string, unknown> = {}) => ({
  title: "Dinner and a walk",
  startsAt: daysAhead(15),
  placeId: PLACES.lisbon,
  venue: "Time Out Market",
  ...extra,
});

describe.skipIf(!onPostgres())("a write on its way while a moderator restricts its couple", () => {
  it("a hello waits for the restriction and is refused: no request sent", async () => {
    const one = await messagingCouple();
    const two = await messagingCouple();
    const [sent] = await whileHeld(restricting(one), [
      () => connections.send({ coupleId: two.coupleId, note: "Just in time?" }, one.a.headers),
    ]);
    refused(sent);
    const db = await getDb();
    expect(await db.select().from(connectionRequests).where(eq(connectionRequests.fromCoupleId, one.coupleId))).toEqual([]);
  });

  it("a post waits for the restriction and is refused: nothing posted", async () => {
    const us = await forumCouple();
    const [posted] = await whileHeld(restricting(us), [() => forum.create(postBody(), us.a.headers)]);
    refused(posted);
    const db = await getDb();
    expect(await db.select().from(forumPosts).where(eq(forumPosts.coupleId, us.coupleId))).toEqual([]);
  });

  it("a post's edit waits for the restriction and is refused: the post reads as it did", async () => {
    const us = await forumCouple();
    const post = (await forum.create(postBody({ body: "As first written" }), us.a.headers)).json.data as { id: string };
    const [edited] = await whileHeld(restricting(us), [() => forum.patch(post.id, { body: "Rewritten just in time?" }, us.a.headers)]);
    refused(edited);
    const db = await getDb();
    expect(await db.select({ body: forumPosts.body }).from(forumPosts).where(eq(forumPosts.id, post.id))).toEqual([
      { body: "As first written" },
    ]);
  });

  it("a reply waits for the restriction and is refused: nothing replied", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = (await forum.create(postBody(), them.a.headers)).json.data as { id: string };
    const [replied] = await whileHeld(restricting(us), [() => forum.reply(post.id, { body: "Just in time?" }, us.a.headers)]);
    refused(replied);
    const db = await getDb();
    expect(await db.select().from(forumReplies).where(eq(forumReplies.postId, post.id))).toEqual([]);
  });

  it("a reply's edit waits for the restriction and is refused: the reply reads as it did", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = (await forum.create(postBody(), them.a.headers)).json.data as { id: string };
    const reply = (await forum.reply(post.id, { body: "As first written" }, us.a.headers)).json.data as { id: string };
    const [edited] = await whileHeld(restricting(us), [
      () => forum.patchReply(reply.id, { body: "Rewritten just in time?" }, us.a.headers),
    ]);
    refused(edited);
    const db = await getDb();
    expect(await db.select({ body: forumReplies.body }).from(forumReplies).where(eq(forumReplies.id, reply.id))).toEqual([
      { body: "As first written" },
    ]);
  });

  it("a plan's proposal waits for the restriction and is refused: nothing proposed", async () => {
    const { one, conversationId } = await connected();
    const [proposed] = await whileHeld(restricting(one), [() => plan.propose(conversationId, dinner(), one.a.headers)]);
    refused(proposed);
    const db = await getDb();
    expect(await db.select().from(plans).where(eq(plans.conversationId, conversationId))).toEqual([]);
  });

  it("a plan's change waits for the restriction and is refused: the plan reads as it did", async () => {
    const { one, conversationId } = await connected();
    const made = (await plan.propose(conversationId, dinner(), one.a.headers)).json.data as { id: string };
    const [changed] = await whileHeld(restricting(one), [() => plan.change(made.id, { note: "Buy now at spam.example" }, one.a.headers)]);
    refused(changed);
    const db = await getDb();
    expect(await db.select({ note: plans.note, sequence: plans.sequence }).from(plans).where(eq(plans.id, made.id))).toEqual([
      { note: null, sequence: 0 },
    ]);
  });

  it("a plan's cancelling with a reason waits for the restriction and is refused: the plan still stands", async () => {
    const { one, conversationId } = await connected();
    const made = (await plan.propose(conversationId, dinner(), one.a.headers)).json.data as { id: string };
    const [cancelled] = await whileHeld(restricting(one), [
      () => plan.cancel(made.id, { reason: "Buy now at spam.example" }, one.a.headers),
    ]);
    refused(cancelled);
    const db = await getDb();
    expect(
      await db.select({ cancelledAt: plans.cancelledAt, cancelReason: plans.cancelReason }).from(plans).where(eq(plans.id, made.id)),
    ).toEqual([{ cancelledAt: null, cancelReason: null }]);
  });

  it("a reply while the actor's partner deletes their account: the reply waits on that partner's row before it takes the couple (no deadlock)", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = (await forum.create(postBody(), them.a.headers)).json.data as { id: string };
    const { waited, answer } = await nextWhileWaiting(
      // What a deletion takes first (lib/account/deletion.ts)...
      (tx) => tx`select id from users where id = ${us.b.userId} for update`,
      () => forum.reply(post.id, { body: "Still here" }, us.a.headers),
      // ...and next. NOWAIT: it fails if the reply holds the couple while it waits on the partner's row.
      (tx) => tx`select id from couples where id = ${us.coupleId} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(201);
  });
});
