import { and, count, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as resolveRoute } from "@/app/api/moderation/reports/[id]/[action]/route";
import { POST as reportRoute } from "@/app/api/reports/route";
import { getDb } from "@/db/client";
import { emailOutbox, liveEvents, notifications, pushOutbox, users } from "@/db/schema";
import { pushesQuoting, quoting } from "@/lib/forum/notices";
import { listNotifications, unreadCount } from "@/lib/notifications/queries";
import { call } from "../support/api";
import { forum, forumCouple, postBody, type Headers, type TestCouple } from "../support/forum";
import { queryPlan, wholeScans } from "../support/query-plan";

const report = (body: unknown, h: Headers) => call(reportRoute, "POST", "/api/reports", { body, headers: h });
const resolve = (id: string, action: string, h: Headers) =>
  call(resolveRoute, "POST", `/api/moderation/reports/${id}/${action}`, { headers: h, params: { id, action } });

async function admin() {
  const couple = await forumCouple();
  await (await getDb()).update(users).set({ role: "admin" }).where(eq(users.id, couple.a.userId));
  return couple.a.headers;
}

/** What a person's bell, list and dashboard card read: the words listed and the unread count. */
async function bell(userId: string) {
  const db = await getDb();
  const list = await listNotifications(db, userId, { limit: 50, offset: 0 });
  return { messages: list.data.map((n) => n.message), unread: await unreadCount(db, userId) };
}

/** How many times the person's open bells were told to recount. */
async function bellsTold(userId: string) {
  const [row] = await (
    await getDb()
  )
    .select({ told: count() })
    .from(liveEvents)
    .where(and(eq(liveEvents.userId, userId), eq(liveEvents.kind, "notification")));
  return row!.told;
}

const HARSH = "You two are the worst couple on this forum";

/**
 * A post by `us`; `them` replies with HARSH, mentioning `third`; `us` reacts to the reply: the
 * post's couple, the mentioned couple and the reply's author each hold a notification quoting it.
 */
async function harshReply() {
  const us = await forumCouple();
  const them = await forumCouple();
  const third = await forumCouple();
  const post = (await forum.create(postBody(), us.a.headers)).json.data as { id: string };
  // The mention names the couple in the words, as the server keeps only mentions the text names.
  const body = `${HARSH}, @${third.name}`;
  const reply = (await forum.reply(post.id, { body, mentions: [third.coupleId] }, them.a.headers)).json.data as { id: string };
  expect((await forum.react("reply", reply.id, "heart", true, us.a.headers)).status).toBe(200);
  const told = [us.a, us.b, third.a, third.b, them.a];
  for (const person of told) expect(await bell(person.userId)).toEqual({ messages: [body], unread: 1 });
  return { us, them, third, post, reply, told };
}

async function expectForgotten(people: TestCouple["a"][], before: number[]) {
  for (const [i, person] of people.entries()) {
    expect(await bell(person.userId)).toEqual({ messages: [], unread: 0 });
    expect(await bellsTold(person.userId)).toBeGreaterThan(before[i]!);
  }
}

describe("notifications quoting forum text that is gone", () => {
  it("leaves none of a reply a moderator removed: not listed, not counted, the bells told", async () => {
    const { us, reply, told } = await harshReply();
    const before = await Promise.all(told.map((person) => bellsTold(person.userId)));
    const filed = (await report({ targetType: "reply", targetId: reply.id, reason: "harassment" }, us.b.headers)).json.data;
    expect((await resolve(filed.id, "remove", await admin())).status).toBe(200);
    await expectForgotten(told, before);
  });

  it("leaves none of a reply hidden by reports, and a moderator who shows it again sends none anew", async () => {
    const { us, third, post, reply, told } = await harshReply();
    const before = await Promise.all(told.map((person) => bellsTold(person.userId)));
    const fourth = await forumCouple();
    const filed: string[] = [];
    for (const reporter of [us.b, third.b, fourth.a]) {
      const answer = await report({ targetType: "reply", targetId: reply.id, reason: "harassment" }, reporter.headers);
      expect(answer.status).toBe(201);
      filed.push(answer.json.data.id);
    }
    await expectForgotten(told, before);
    expect((await resolve(filed[0]!, "dismiss", await admin())).status).toBe(200);
    const thread = (await forum.thread(post.id, us.a.headers)).json.data as { replies: { id: string }[] };
    expect(thread.replies.map((shown) => shown.id)).toEqual([reply.id]);
    for (const person of told) expect(await bell(person.userId)).toEqual({ messages: [], unread: 0 });
  });

  it("leaves none of a post hidden by reports", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = (await forum.create(postBody({ title: HARSH, body: `Hello @${them.name}`, mentions: [them.coupleId] }), us.a.headers)).json
      .data as { id: string };
    expect((await forum.react("post", post.id, "heart", true, them.a.headers)).status).toBe(200);
    const told = [them.a, them.b, us.a];
    for (const person of told) expect(await bell(person.userId)).toEqual({ messages: [HARSH], unread: 1 });
    const before = await Promise.all(told.map((person) => bellsTold(person.userId)));
    for (const reporter of [them.b, (await forumCouple()).a, (await forumCouple()).a])
      expect((await report({ targetType: "post", targetId: post.id, reason: "harassment" }, reporter.headers)).status).toBe(201);
    await expectForgotten(told, before);
  });

  it("leaves none of a reply its author deleted", async () => {
    const { them, reply, told } = await harshReply();
    const before = await Promise.all(told.map((person) => bellsTold(person.userId)));
    expect((await forum.removeReply(reply.id, them.a.headers)).status).toBe(200);
    await expectForgotten(told, before);
  });

  it("leaves none of a reply deleted, nor of an edited one's words, in the e-mails still waiting to leave", async () => {
    const db = await getDb();
    /** The e-mails not yet delivered to a person (a try again after a failure waits so), as their words read now. */
    const waitingTo = async (userId: string) =>
      (
        await db
          .select({ text: emailOutbox.text, html: emailOutbox.html })
          .from(emailOutbox)
          .where(and(eq(emailOutbox.recipientId, userId), isNull(emailOutbox.deliveredAt)))
      ).map((mail) => mail.text + mail.html);
    const deleted = await harshReply();
    const edited = await harshReply();
    for (const { us, third } of [deleted, edited])
      for (const person of [us.a, third.a]) expect((await waitingTo(person.userId)).join()).toContain(HARSH);
    expect((await forum.removeReply(deleted.reply.id, deleted.them.a.headers)).status).toBe(200);
    expect((await forum.patchReply(edited.reply.id, { body: "Sorry, that was unkind" }, edited.them.a.headers)).status).toBe(200);
    for (const { us, third } of [deleted, edited])
      for (const person of [us.a, third.a]) expect((await waitingTo(person.userId)).join()).not.toContain(HARSH);
  });

  it("leaves none of a post deleted or removed; the notices of its replies, which still stand, stay", async () => {
    for (const gone of ["deleted", "removed"] as const) {
      const us = await forumCouple();
      const them = await forumCouple();
      const post = (await forum.create(postBody({ title: HARSH, body: `Hello @${them.name}`, mentions: [them.coupleId] }), us.a.headers))
        .json.data as { id: string };
      expect((await forum.react("post", post.id, "heart", true, them.a.headers)).status).toBe(200);
      expect(await bell(them.b.userId)).toEqual({ messages: [HARSH], unread: 1 });
      expect(await bell(us.a.userId)).toEqual({ messages: [HARSH], unread: 1 });
      await forum.reply(post.id, { body: "A fair reply" }, them.a.headers);
      if (gone === "deleted") expect((await forum.remove(post.id, us.a.headers)).status).toBe(200);
      else {
        const filed = (await report({ targetType: "post", targetId: post.id, reason: "harassment" }, them.b.headers)).json.data;
        expect((await resolve(filed.id, "remove", await admin())).status).toBe(200);
      }
      expect(await bell(them.b.userId)).toEqual({ messages: [], unread: 0 });
      expect(await bell(us.a.userId)).toEqual({ messages: ["A fair reply"], unread: 1 });
    }
  });

  it("quotes an edited reply or post title as it now reads", async () => {
    const { us, them, third, post, reply, told } = await harshReply();
    expect((await forum.patchReply(reply.id, { body: "Sorry, that was unkind" }, them.a.headers)).status).toBe(200);
    for (const person of told) expect((await bell(person.userId)).messages).toEqual(["Sorry, that was unkind"]);
    expect(
      (await forum.patch(post.id, { title: "A calmer title", body: `Hello @${third.name}`, mentions: [third.coupleId] }, us.a.headers))
        .status,
    ).toBe(200);
    expect((await bell(third.a.userId)).messages).toEqual(["A calmer title", "Sorry, that was unkind"]);
    expect((await forum.patch(post.id, { title: "Calmer still" }, us.a.headers)).status).toBe(200);
    expect((await bell(third.a.userId)).messages).toEqual(["Calmer still", "Sorry, that was unkind"]);
  });

  it("finds those notifications and waiting pushes by index", async () => {
    const { us, post, reply } = await harshReply();
    const db = await getDb();
    for (const replyId of [reply.id, null]) {
      const where = quoting({ authorUserId: us.a.userId, postId: post.id, replyId });
      for (const statement of [db.delete(notifications).where(where), db.update(notifications).set({ message: "" }).where(where)])
        expect(wholeScans(await queryPlan(statement.getSQL()))).toEqual([]);
      const pushes = pushesQuoting({ authorUserId: us.a.userId, postId: post.id, replyId });
      for (const statement of [db.delete(pushOutbox).where(pushes), db.update(pushOutbox).set({ body: "" }).where(pushes)])
        expect(wholeScans(await queryPlan(statement.getSQL()))).toEqual([]);
    }
  });
});
