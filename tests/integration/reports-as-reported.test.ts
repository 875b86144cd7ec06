import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { reports } from "@/db/schema";
import { deleteAccount } from "@/lib/account/deletion";
import { exportAccount } from "@/lib/account/export";
import { PASSWORD } from "../support/api";
import { forum, forumCouple, postBody, type Headers } from "../support/forum";
import { connected, talk } from "../support/messages";
import { moderation, moderatorCouple } from "../support/moderation";

type QueueEntry = {
  id: string;
  targetId: string;
  content: { title: string | null; body: string; changedSince: { title: string | null; body: string | null } | null } | null;
};

const queueFor = async (targetId: string, h: Headers): Promise<QueueEntry[]> =>
  (await moderation.queue(h)).json.data.filter((entry: QueueEntry) => entry.targetId === targetId);

describe("the moderation queue shows the words as reported", () => {
  it("of a post its author edited since, with what it reads now; the same words again read as unchanged", async () => {
    const author = await forumCouple();
    const reporter = await forumCouple();
    const { headers: moderator } = await moderatorCouple();
    const post = (await forum.create(postBody({ title: "Awful title", body: "Awful words" }), author.a.headers)).json.data;
    expect((await moderation.report({ targetType: "post", targetId: post.id, reason: "harassment" }, reporter.a.headers)).status).toBe(201);
    await forum.patch(post.id, { title: "Nice title", body: "Nice words" }, author.a.headers);

    const [entry] = await queueFor(post.id, moderator);
    expect(entry!.content).toMatchObject({
      title: "Awful title",
      body: "Awful words",
      changedSince: { title: "Nice title", body: "Nice words" },
    });
    await forum.patch(post.id, { title: "Awful title", body: "Awful words" }, author.a.headers);
    expect((await queueFor(post.id, moderator))[0]!.content).toMatchObject({ body: "Awful words", changedSince: null });
  });

  it("of a reply its author deleted since", async () => {
    const author = await forumCouple();
    const reporter = await forumCouple();
    const { headers: moderator } = await moderatorCouple();
    const post = (await forum.create(postBody(), reporter.a.headers)).json.data;
    const reply = (await forum.reply(post.id, { body: "Rude reply" }, author.a.headers)).json.data;
    await moderation.report({ targetType: "reply", targetId: reply.id, reason: "harassment" }, reporter.a.headers);
    await forum.removeReply(reply.id, author.a.headers);
    expect((await queueFor(reply.id, moderator))[0]!.content).toMatchObject({
      body: "Rude reply",
      changedSince: { title: null, body: null },
    });
  });

  it("of a message its author deleted; the author's account deleted, the copy goes with their words", async () => {
    const { one, two, conversationId } = await connected();
    const { headers: moderator } = await moderatorCouple();
    const message = (await talk.send(conversationId, { body: "Something awful" }, one.b.headers)).json.data;
    const answer = (await talk.send(conversationId, { body: "Something rude back" }, two.a.headers)).json.data;
    expect((await moderation.report({ targetType: "message", targetId: message.id, reason: "harassment" }, two.a.headers)).status).toBe(
      201,
    );
    await moderation.report({ targetType: "message", targetId: answer.id, reason: "harassment" }, one.a.headers);
    await talk.remove(message.id, one.b.headers);

    expect((await queueFor(message.id, moderator))[0]!.content).toMatchObject({
      body: "Something awful",
      changedSince: { title: null, body: null },
    });
    // The reporter's export lists their report, never the reported couple's words.
    const db = await getDb();
    expect(JSON.stringify((await exportAccount(db, two.a.userId)).reports)).not.toContain("Something awful");

    await deleteAccount(db, one.b.userId, PASSWORD);
    const copies = await db.select({ targetId: reports.targetId, body: reports.reportedBody }).from(reports);
    expect(copies.find((row) => row.targetId === message.id)).toEqual({ targetId: message.id, body: null });
    expect(copies.find((row) => row.targetId === answer.id)).toEqual({ targetId: answer.id, body: "Something rude back" });
    expect((await queueFor(message.id, moderator))[0]!.content).toMatchObject({ body: "This message was deleted", changedSince: null });
  });
});
