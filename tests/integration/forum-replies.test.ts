import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as mentionsRoute } from "@/app/api/forum/mentions/route";
import { getDb } from "@/db/client";
import { couples, forumPosts, forumReactions, forumReplies, notifications } from "@/db/schema";
import { listNotifications } from "@/lib/notifications/queries";
import { call } from "../support/api";
import { forum, forumCouple, mentioning, postBody, seedPosts, type TestCouple } from "../support/forum";
import { nextWhileWaiting, whileHeld } from "../support/lock-race";
import { onPostgres } from "../support/test-database";

async function notificationsOf(...userIds: string[]) {
  const db = await getDb();
  return db
    .select({
      userId: notifications.userId,
      type: notifications.type,
      title: notifications.title,
      postId: notifications.postId,
      replyId: notifications.replyId,
      actorCount: notifications.actorCount,
      isRead: notifications.isRead,
    })
    .from(notifications)
    .where(inArray(notifications.userId, userIds));
}

async function postBy(couple: TestCouple) {
  return (await forum.create(postBody(), couple.a.headers)).json.data as { id: string };
}

describe("POST /api/forum/posts/{id}/replies", () => {
  it("adds a reply (201), counts it, bumps the post's activity, and shows it oldest first with its id", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = await postBy(us);
    const first = await forum.reply(post.id, { body: "First!" }, them.a.headers);
    expect(first.status).toBe(201);
    expect(first.json.data).toMatchObject({
      postId: post.id,
      body: "First!",
      quote: null,
      deleted: false,
      author: { coupleId: them.coupleId },
    });
    await forum.reply(post.id, { body: "Second", quoteReplyId: first.json.data.id }, us.b.headers);
    const thread = (await forum.thread(post.id, them.b.headers)).json.data;
    expect(thread.post.replyCount).toBe(2);
    expect(thread.replies.map((r: { body: string }) => r.body)).toEqual(["First!", "Second"]);
    expect(thread.replies[1].quote).toMatchObject({
      id: first.json.data.id,
      excerpt: "First!",
      deleted: false,
      author: { firstName: them.a.firstName, coupleName: them.name },
    });
    expect(new Date(thread.post.lastActivityAt).getTime()).toBeGreaterThanOrEqual(new Date(thread.replies[1].createdAt).getTime());
  });

  it("refuses bad replies with 4xx and writes nothing", async () => {
    const us = await forumCouple();
    const post = await postBy(us);
    const other = await postBy(await forumCouple());
    const otherReply = (await forum.reply(other.id, { body: "elsewhere" }, us.a.headers)).json.data;
    const cases: [unknown, number, string][] = [
      [{ body: "" }, 400, "Please write a reply"],
      [{ body: "x".repeat(5001) }, 400, "Your reply must be no more than 5,000 characters"],
      [{ body: "ok", quoteReplyId: "nope" }, 400, "quoteReplyId must be the id of a reply"],
      [{ body: "ok", quoteReplyId: otherReply.id }, 400, "quoteReplyId must be the id of a reply"],
    ];
    for (const [body, status, message] of cases) {
      const res = await forum.reply(post.id, body, us.b.headers);
      expect(res.status).toBe(status);
      expect(res.json.error.message).toBe(message);
    }
    expect((await forum.reply("00000000-0000-4000-8000-000000000000", { body: "hi" }, us.a.headers)).status).toBe(404);
    const db = await getDb();
    expect(await db.select().from(forumReplies).where(eq(forumReplies.postId, post.id))).toEqual([]);
  });

  it("lets only its author edit or delete a reply; a deleted one stays as a placeholder", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = await postBy(us);
    const reply = (await forum.reply(post.id, { body: "Typo here" }, them.a.headers)).json.data;
    expect((await forum.patchReply(reply.id, { body: "Not mine" }, us.a.headers)).status).toBe(403);
    expect((await forum.patchReply(reply.id, { body: "Not mine" }, them.b.headers)).status).toBe(403);
    const fixed = await forum.patchReply(reply.id, { body: "Fixed" }, them.a.headers);
    expect(fixed.status).toBe(200);
    expect(fixed.json.data.body).toBe("Fixed");
    expect((await forum.removeReply(reply.id, us.a.headers)).status).toBe(403);
    expect((await forum.removeReply(reply.id, them.a.headers)).status).toBe(200);
    const thread = (await forum.thread(post.id, us.a.headers)).json.data;
    expect(thread.post.replyCount).toBe(0);
    expect(thread.replies[0]).toMatchObject({ id: reply.id, deleted: true, body: "" });
  });

  it.skipIf(!onPostgres())("counts a reply deleted twice at one instant (two tabs) once: the second delete answers 404", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = await postBy(us);
    const kept = (await forum.reply(post.id, { body: "Staying" }, them.a.headers)).json.data;
    const reply = (await forum.reply(post.id, { body: "Going" }, them.a.headers)).json.data;
    // Both deletes find the reply there, then wait on its row, held on a second connection.
    const deletes = await whileHeld(
      (tx) => tx`select id from forum_replies where id = ${reply.id} for update`,
      [() => forum.removeReply(reply.id, them.a.headers), () => forum.removeReply(reply.id, them.a.headers)],
    );
    expect(deletes.map((res) => res.status).sort()).toEqual([200, 404]);
    const thread = (await forum.thread(post.id, us.a.headers)).json.data;
    expect(thread.post.replyCount).toBe(1);
    expect(thread.replies.map((r: { id: string; deleted: boolean }) => [r.id, r.deleted])).toEqual([
      [kept.id, false],
      [reply.id, true],
    ]);
  });

  it.skipIf(!onPostgres())(
    "an edit that waited on the reply's delete or removal answers 404 and tells nobody it mentions of words that are gone",
    async () => {
      const us = await forumCouple();
      const them = await forumCouple();
      const named = await forumCouple();
      const post = await postBy(us);
      const reply = (await forum.reply(post.id, { body: "Going soon" }, them.a.headers)).json.data;
      // The edit finds the reply there, then waits on its row: a delete (or a moderator's removal) under way.
      const [edit] = await whileHeld(
        (tx) => tx`update forum_replies set deleted_at = now() where id = ${reply.id}`,
        [() => forum.patchReply(reply.id, mentioning(named), them.a.headers)],
      );
      expect(edit!.status).toBe(404);
      expect(await notificationsOf(named.a.userId, named.b.userId)).toEqual([]);
      const [row] = await (await getDb()).select({ body: forumReplies.body }).from(forumReplies).where(eq(forumReplies.id, reply.id));
      expect(row!.body).toBe("Going soon");
    },
  );
  it.skipIf(!onPostgres())("replies the same words sent from two tabs at one instant once (the other: 409 DUPLICATE_CONTENT)", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = await postBy(us);
    const replies = await whileHeld(
      (tx) => tx`select id from users where id = ${them.a.userId} for update`,
      [
        () => forum.reply(post.id, { body: "Same words" }, them.a.headers),
        () => forum.reply(post.id, { body: "Same words" }, them.a.headers),
      ],
    );
    expect(replies.map((res) => res.status).sort()).toEqual([201, 409]);
    expect((await forum.thread(post.id, us.a.headers)).json.data.post.replyCount).toBe(1);
  });

  it("never moves a post's last activity back: a reply dated before it leaves it as it was", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = await postBy(us);
    const ahead = new Date(Date.now() + 60 * 60 * 1000);
    const db = await getDb();
    await db.update(forumPosts).set({ lastActivityAt: ahead }).where(eq(forumPosts.id, post.id));
    expect((await forum.reply(post.id, { body: "Earlier than that" }, them.a.headers)).status).toBe(201);
    expect((await forum.thread(post.id, us.a.headers)).json.data.post.lastActivityAt).toBe(ahead.toISOString());
  });

  it.skipIf(!onPostgres())("dates a reply that waited on another to the same post after it, and its activity with it", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = await postBy(us);
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from forum_posts where id = ${post.id} for no key update`,
      () => forum.reply(post.id, { body: "Waited" }, them.a.headers),
      // Another reply to the post, dated and committed while this one waits: after it began.
      async (tx) => {
        await tx`insert into forum_replies (post_id, author_user_id, couple_id, body, created_at)
          values (${post.id}, ${us.b.userId}, ${us.coupleId}, 'Committed first', clock_timestamp())`;
        await tx`update forum_posts set reply_count = reply_count + 1, last_activity_at = clock_timestamp() where id = ${post.id}`;
      },
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(201);
    const thread = (await forum.thread(post.id, us.a.headers)).json.data;
    // A thread polled after "Committed first" (its cursor) still finds "Waited".
    expect(thread.replies.map((r: { body: string }) => r.body)).toEqual(["Committed first", "Waited"]);
    expect(thread.post.lastActivityAt).toBe(answer.json.data.createdAt);
  });

  it("pages replies with a cursor that also serves polling for new ones", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = await postBy(us);
    for (const body of ["one", "two", "three"]) await forum.reply(post.id, { body }, them.a.headers);
    const first = (await forum.thread(post.id, us.a.headers, "?limit=2")).json.data;
    expect(first.replies.map((r: { body: string }) => r.body)).toEqual(["one", "two"]);
    expect(first.pagination.hasMore).toBe(true);
    const rest = (await forum.thread(post.id, us.a.headers, `?limit=2&cursor=${encodeURIComponent(first.pagination.nextCursor)}`)).json
      .data;
    expect(rest.replies.map((r: { body: string }) => r.body)).toEqual(["three"]);
    expect(rest.pagination.hasMore).toBe(false);
    await forum.reply(post.id, { body: "four" }, them.b.headers);
    const polled = (await forum.thread(post.id, us.a.headers, `?cursor=${encodeURIComponent(rest.pagination.nextCursor)}`)).json.data;
    expect(polled.replies.map((r: { body: string }) => r.body)).toEqual(["four"]);
    expect((await forum.thread(post.id, us.a.headers, "?cursor=abc.def")).status).toBe(400);
  });

  it("dates a reply after every reply of its post already there, so a cursor handed out never skips it", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = await postBy(us);
    // The latest reply dated at or past the clock: one in the same millisecond (a tie the random
    // ids order), or one stamped before the clock stepped back.
    const db = await getDb();
    const ahead = new Date(Date.now() + 60 * 60 * 1000);
    await db
      .insert(forumReplies)
      .values({ postId: post.id, authorUserId: us.b.userId, coupleId: us.coupleId, body: "Dated ahead", createdAt: ahead });
    const seen = (await forum.thread(post.id, them.a.headers)).json.data;
    expect(seen.replies.map((r: { body: string }) => r.body)).toEqual(["Dated ahead"]);
    const written = (await forum.reply(post.id, { body: "Written after" }, them.a.headers)).json.data;
    expect(new Date(written.createdAt).getTime()).toBeGreaterThan(ahead.getTime());
    const polled = (await forum.thread(post.id, them.a.headers, `?cursor=${encodeURIComponent(seen.pagination.nextCursor)}`)).json.data;
    expect(polled.replies.map((r: { body: string }) => r.body)).toEqual(["Written after"]);
  });
});

describe("reply and mention notifications", () => {
  it("notifies both partners of the post's couple and the quoted reply's author, once each, never the actor", async () => {
    const us = await forumCouple();
    const quoted = await forumCouple();
    const replier = await forumCouple();
    const post = await postBy(us);
    const first = (await forum.reply(post.id, { body: "Lovely idea" }, quoted.a.headers)).json.data;
    const reply = (
      await forum.reply(
        post.id,
        { body: `Agreed with you @${us.name} @${quoted.name}`, quoteReplyId: first.id, mentions: [us.coupleId, quoted.coupleId] },
        replier.a.headers,
      )
    ).json.data;
    const rows = (
      await notificationsOf(us.a.userId, us.b.userId, quoted.a.userId, quoted.b.userId, replier.a.userId, replier.b.userId)
    ).filter((n) => n.replyId === reply.id);
    const by = (userId: string) => rows.filter((n) => n.userId === userId).map((n) => [n.type, n.title]);
    const who = `${replier.a.firstName} of ${replier.name}`;
    expect(by(us.a.userId)).toEqual([["reply", `${who} replied to your post`]]);
    expect(by(us.b.userId)).toEqual([["reply", `${who} replied to your post`]]);
    expect(by(quoted.a.userId)).toEqual([["reply", `${who} replied to your reply`]]);
    expect(by(quoted.b.userId)).toEqual([["mention", `${who} mentioned you`]]);
    expect(by(replier.a.userId)).toEqual([]);
    expect(by(replier.b.userId)).toEqual([]);
    expect(rows.every((n) => n.postId === post.id)).toBe(true);
    // In the spec's shape, with the actor's couple name.
    const db = await getDb();
    const listed = await listNotifications(db, us.a.userId, { limit: 20, offset: 0 });
    expect(listed.data.find((n) => n.reply_id === reply.id)).toMatchObject({
      type: "reply",
      post_id: post.id,
      triggered_by_couple_name: replier.name,
    });
  });

  it("a reply hidden by reports is there for its own couple only: another couple cannot quote it (400, as a missing reply) and its author is not told", async () => {
    const us = await forumCouple();
    const quoted = await forumCouple();
    const replier = await forumCouple();
    const post = await postBy(us);
    const hidden = (await forum.reply(post.id, { body: "Lovely idea" }, quoted.a.headers)).json.data;
    const db = await getDb();
    await db.update(forumReplies).set({ hiddenAt: new Date() }).where(eq(forumReplies.id, hidden.id));

    const refused = await forum.reply(post.id, { body: "Agreed with you", quoteReplyId: hidden.id }, replier.a.headers);
    const missing = await forum.reply(post.id, { body: "Agreed with nobody", quoteReplyId: crypto.randomUUID() }, replier.a.headers);
    expect(refused.status).toBe(400);
    expect(refused.json.error).toEqual(missing.json.error);
    const repliedBy = async (couple: TestCouple) =>
      db
        .select({ id: forumReplies.id })
        .from(forumReplies)
        .where(and(eq(forumReplies.postId, post.id), eq(forumReplies.coupleId, couple.coupleId)));
    expect(await repliedBy(replier)).toEqual([]);
    expect((await notificationsOf(quoted.a.userId)).filter((n) => n.type === "reply")).toEqual([]);

    // Its own couple still sees it, and may quote it.
    expect((await forum.reply(post.id, { body: "As you said", quoteReplyId: hidden.id }, quoted.b.headers)).status).toBe(201);
  });

  it("notifies a couple mentioned in a post, keeps only discoverable couples, and renders the validated mentions", async () => {
    const us = await forumCouple();
    const friends = await forumCouple();
    const hidden = await forumCouple({ visible: false });
    const post = (await forum.create(postBody(mentioning(friends, hidden, us)), us.a.headers)).json.data;
    expect(post.mentions).toEqual([{ coupleId: friends.coupleId, name: friends.name }]);
    const rows = await notificationsOf(friends.a.userId, friends.b.userId, hidden.a.userId, us.b.userId);
    expect(rows.filter((n) => n.postId === post.id).map((n) => [n.userId, n.type])).toEqual(
      expect.arrayContaining([
        [friends.a.userId, "mention"],
        [friends.b.userId, "mention"],
      ]),
    );
    expect(rows.filter((n) => n.postId === post.id)).toHaveLength(2);
  });

  it("suggests couples to mention by name: discoverable, not one's own", async () => {
    const us = await forumCouple({ name: `Zoe & Max ${Date.now()}` });
    const found = await forumCouple({ name: `Zora & Ian ${Date.now()}` });
    await forumCouple({ name: `Zorro & Hidden ${Date.now()}`, visible: false });
    const res = await call(mentionsRoute, "GET", "/api/forum/mentions?q=zo", { headers: us.a.headers });
    expect(res.status).toBe(200);
    const names = res.json.data.map((c: { name: string }) => c.name);
    expect(names).toContain(found.name);
    expect(names).not.toContain(us.name);
    expect(names.some((n: string) => n.startsWith("Zorro"))).toBe(false);
    expect((await call(mentionsRoute, "GET", "/api/forum/mentions?q=z", { headers: us.a.headers })).status).toBe(400);
  });
});

describe("a couple the reader may no longer see", () => {
  it("keeps its name on its words, without a profile link or photo, and its mentions become plain text", async () => {
    const us = await forumCouple();
    const suspended = await forumCouple();
    const hid = await forumCouple();
    const db = await getDb();
    await db
      .update(couples)
      .set({ profileImageUrl: "/uploads/couple.webp" })
      .where(inArray(couples.id, [suspended.coupleId, hid.coupleId]));
    const post = (await forum.create(postBody(mentioning(hid)), suspended.a.headers)).json.data;
    const reply = (await forum.reply(post.id, { body: `Hello @${suspended.name}`, mentions: [suspended.coupleId] }, hid.a.headers)).json
      .data;
    const seen = async (h: typeof us.a.headers) => {
      const listed = (await forum.list("", h)).json.data.find((p: { id: string }) => p.id === post.id);
      const thread = (await forum.thread(post.id, h)).json.data;
      return { listed, post: thread.post, reply: thread.replies.find((r: { id: string }) => r.id === reply.id) };
    };
    const before = await seen(us.a.headers);
    expect(before.listed.author).toMatchObject({ profileShown: true, coupleImageUrl: "/uploads/couple.webp" });
    expect(before.post.mentions).toEqual([{ coupleId: hid.coupleId, name: hid.name }]);
    expect(before.listed.mentions).toEqual([{ coupleId: hid.coupleId, name: hid.name }]);
    expect(before.reply).toMatchObject({
      author: { profileShown: true },
      mentions: [{ coupleId: suspended.coupleId, name: suspended.name }],
    });

    await db.update(couples).set({ status: "suspended" }).where(eq(couples.id, suspended.coupleId));
    await db.update(couples).set({ isVisible: false }).where(eq(couples.id, hid.coupleId));
    const after = await seen(us.a.headers);
    for (const item of [after.listed, after.post]) {
      expect(item.author).toMatchObject({
        signature: `${suspended.a.firstName} of ${suspended.name}`,
        profileShown: false,
        coupleImageUrl: null,
      });
      expect(item.mentions).toEqual([]);
    }
    expect(after.reply).toMatchObject({ author: { profileShown: false, coupleImageUrl: null }, mentions: [] });
    // The couple that hid still sees itself: its own reply links, and the post's mention of it.
    const own = await seen(hid.a.headers);
    expect(own.reply.author).toMatchObject({ profileShown: true, coupleImageUrl: "/uploads/couple.webp" });
    expect(own.post.mentions).toEqual([{ coupleId: hid.coupleId, name: hid.name }]);
  });
});

describe("PUT and DELETE /api/forum/{posts|replies}/{id}/reactions/{kind}", () => {
  it("toggles idempotently and answers counts and the caller's own kinds", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = await postBy(us);
    const once = await forum.react("post", post.id, "heart", true, them.a.headers);
    expect(once.status).toBe(200);
    expect(once.json.data).toEqual({ reactions: { heart: 1, laugh: 0, wow: 0, clap: 0, hug: 0 }, myReactions: ["heart"] });
    expect((await forum.react("post", post.id, "heart", true, them.a.headers)).json.data.reactions.heart).toBe(1);
    await forum.react("post", post.id, "heart", true, them.b.headers);
    await forum.react("post", post.id, "hug", true, them.a.headers);
    const listed = (await forum.list("", them.a.headers)).json.data.find((p: { id: string }) => p.id === post.id);
    expect(listed).toMatchObject({ reactions: { heart: 2, hug: 1 }, myReactions: expect.arrayContaining(["heart", "hug"]) });
    const off = await forum.react("post", post.id, "heart", false, them.a.headers);
    expect(off.json.data).toEqual({ reactions: { heart: 1, laugh: 0, wow: 0, clap: 0, hug: 1 }, myReactions: ["hug"] });
    expect((await forum.react("post", post.id, "heart", false, them.a.headers)).status).toBe(200);
    const thread = (await forum.thread(post.id, us.a.headers)).json.data;
    expect(thread.post.reactions.heart).toBe(1);
  });

  it("refuses an unknown reaction (400) and a missing target (404); reacts to replies too", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = await postBy(us);
    const bad = await forum.react("post", post.id, "angry", true, them.a.headers);
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toBe("Unknown reaction: use heart, laugh, wow, clap, hug");
    expect((await forum.react("post", "00000000-0000-4000-8000-000000000000", "wow", true, them.a.headers)).status).toBe(404);
    const reply = (await forum.reply(post.id, { body: "Ha!" }, us.b.headers)).json.data;
    const res = await forum.react("reply", reply.id, "laugh", true, them.a.headers);
    expect(res.json.data.reactions.laugh).toBe(1);
    const thread = (await forum.thread(post.id, them.b.headers)).json.data;
    expect(thread.replies[0].reactions.laugh).toBe(1);
    expect(thread.replies[0].reactedBy.laugh).toEqual([`${them.a.firstName} of ${them.name}`]);
    expect(thread.post.reactions.laugh).toBe(0);
  });

  it.skipIf(!onPostgres())(
    "a reaction that waited on its post's delete adds nothing: no reaction, no Top count, no notice to the author (404)",
    async () => {
      const us = await forumCouple();
      const them = await forumCouple();
      const post = await postBy(us);
      // The reaction finds the post there, then meets its row held by a delete under way.
      const [reacted] = await whileHeld(
        (tx) => tx`update forum_posts set deleted_at = now() where id = ${post.id}`,
        [() => forum.react("post", post.id, "heart", true, them.a.headers)],
      );
      expect(reacted!.status).toBe(404);
      expect(await notificationsOf(us.a.userId, us.b.userId)).toEqual([]);
      const db = await getDb();
      const [row] = await db.select({ topScore: forumPosts.topScore }).from(forumPosts).where(eq(forumPosts.id, post.id));
      expect(row!.topScore).toBe(0);
      expect(await db.select().from(forumReactions).where(eq(forumReactions.postId, post.id))).toEqual([]);
    },
  );

  it("groups reaction notifications: one unread row per target and day, naming the latest couple and counting the others", async () => {
    const us = await forumCouple();
    const post = await postBy(us);
    const reactors = [await forumCouple(), await forumCouple(), await forumCouple()];
    for (const couple of reactors) {
      await forum.react("post", post.id, "heart", true, couple.a.headers);
      await forum.react("post", post.id, "clap", true, couple.a.headers);
    }
    // Both partners of the last couple: still one couple more.
    await forum.react("post", post.id, "wow", true, reactors[2]!.b.headers);
    let rows = (await notificationsOf(us.a.userId, us.b.userId)).filter((n) => n.type === "reaction");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      userId: us.a.userId,
      actorCount: 3,
      title: `${reactors[2]!.name} and 2 others reacted to your post`,
      postId: post.id,
      replyId: null,
    });

    // Once read, the next reaction starts a new unread row.
    const db = await getDb();
    await db
      .update(notifications)
      .set({ isRead: true })
      .where(and(eq(notifications.userId, us.a.userId), eq(notifications.type, "reaction")));
    const late = await forumCouple();
    await forum.react("post", post.id, "hug", true, late.a.headers);
    rows = (await notificationsOf(us.a.userId)).filter((n) => n.type === "reaction");
    expect(rows).toHaveLength(2);
    expect(rows.find((n) => !n.isRead)?.title).toBe(`${late.name} and 3 others reacted to your post`);
  });

  it("names a partner by first name, never the own couple as if it were another couple", async () => {
    const us = await forumCouple();
    const post = await postBy(us);
    await forum.react("post", post.id, "heart", true, us.b.headers);
    const reply = (await forum.reply(post.id, { body: "Proud of you" }, us.b.headers)).json.data;
    const rows = await notificationsOf(us.a.userId);
    expect(rows.find((n) => n.type === "reaction")?.title).toBe(`${us.b.firstName} reacted to your post`);
    expect(rows.find((n) => n.replyId === reply.id)?.title).toBe(`${us.b.firstName} replied to your post`);
  });

  it("never notifies the person about their own reaction", async () => {
    const us = await forumCouple();
    const [seeded] = await seedPosts(us.coupleId, us.a.userId, 1);
    await forum.react("post", seeded!.id, "heart", true, us.a.headers);
    expect((await notificationsOf(us.a.userId)).filter((n) => n.type === "reaction")).toEqual([]);
  });
});
