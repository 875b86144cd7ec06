import { describe, expect, it } from "vitest";
import { PUT as blockRoute } from "@/app/api/couples/[id]/block/route";
import { getDb } from "@/db/client";
import { forumReactions } from "@/db/schema";
import { REACTED_BY_SHOWN } from "@/lib/forum/rules";
import { call } from "../support/api";
import { forum, forumCouple, postBody, type Headers, type TestCouple } from "../support/forum";

const block = (id: string, h: Headers) => call(blockRoute, "PUT", `/api/couples/${id}/block`, { headers: h, params: { id } });
const sign = (couple: TestCouple, who: "a" | "b" = "a") => `${couple[who].firstName} of ${couple.name}`;

/** Reactions straight in the database, one second apart in the given order (no rate limit). */
async function reactInOrder(postId: string, replyId: string | null, couples: TestCouple[], kind: "heart" | "hug") {
  const db = await getDb();
  const start = Date.now() - couples.length * 1000;
  await db
    .insert(forumReactions)
    .values(
      couples.map((c, i) => ({ postId, replyId, userId: c.a.userId, coupleId: c.coupleId, kind, createdAt: new Date(start + i * 1000) })),
    );
}

describe("who reacted (shown on hover or focus)", () => {
  it("lists the signatures of who reacted to a post and a reply, earliest first, in the thread and the post's answers; a list carries the counts only", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = (await forum.create(postBody(), us.a.headers)).json.data as { id: string };
    await forum.react("post", post.id, "heart", true, them.a.headers);
    await forum.react("post", post.id, "heart", true, us.b.headers);
    await forum.react("post", post.id, "wow", true, them.b.headers);
    const reply = (await forum.reply(post.id, { body: "Lovely" }, them.a.headers)).json.data as { id: string };
    await forum.react("reply", reply.id, "hug", true, us.a.headers);

    const thread = (await forum.thread(post.id, us.a.headers)).json.data;
    expect(thread.post.reactedBy).toEqual({ heart: [sign(them), sign(us, "b")], laugh: [], wow: [sign(them, "b")], clap: [], hug: [] });
    expect(thread.replies[0].reactedBy.hug).toEqual([sign(us)]);
    expect(thread.replies[0].reactedBy.heart).toEqual([]);

    const listed = (await forum.list("?scope=global&sort=new&limit=50", them.a.headers)).json.data.find(
      (p: { id: string }) => p.id === post.id,
    );
    expect(listed.reactions).toMatchObject({ heart: 2, wow: 1, laugh: 0 });
    expect(listed.myReactions).toEqual(["heart"]);
    // Who reacted is the thread's detail (shown on hover there); a list row shows counts.
    expect(listed).not.toHaveProperty("reactedBy");

    // The answer of an edit carries them too.
    const patched = (await forum.patch(post.id, { title: "Weekend in Sintra, edited" }, us.a.headers)).json.data;
    expect(patched.reactedBy.heart).toEqual([sign(them), sign(us, "b")]);
  });

  it("counts a hidden couple's reaction but names it to no other couple (only to itself)", async () => {
    const us = await forumCouple();
    const hidden = await forumCouple({ visible: false });
    const post = (await forum.create(postBody(), us.a.headers)).json.data as { id: string };
    const reply = (await forum.reply(post.id, { body: "Quietly here" }, us.b.headers)).json.data as { id: string };
    await forum.react("post", post.id, "heart", true, hidden.a.headers);
    await forum.react("reply", reply.id, "hug", true, hidden.a.headers);

    const thread = (await forum.thread(post.id, us.a.headers)).json.data;
    expect(thread.post.reactions.heart).toBe(1);
    expect(thread.post.reactedBy.heart).toEqual([]);
    expect(thread.replies[0].reactions.hug).toBe(1);
    expect(thread.replies[0].reactedBy.hug).toEqual([]);
    const listed = (await forum.list("?scope=global&sort=new&limit=50", us.a.headers)).json.data.find(
      (p: { id: string }) => p.id === post.id,
    );
    expect(listed.reactions.heart).toBe(1);
    expect(JSON.stringify(thread)).not.toContain(hidden.name);
    expect(JSON.stringify(listed)).not.toContain(hidden.name);

    // The hidden couple itself still sees its own name.
    expect((await forum.thread(post.id, hidden.a.headers)).json.data.post.reactedBy.heart).toEqual([sign(hidden)]);
  });

  it(`names at most ${REACTED_BY_SHOWN} per kind while the count holds every one`, async () => {
    const us = await forumCouple();
    const post = (await forum.create(postBody(), us.a.headers)).json.data as { id: string };
    const reply = (await forum.reply(post.id, { body: "Many hugs" }, us.b.headers)).json.data as { id: string };
    const reactors: TestCouple[] = [];
    for (let i = 0; i < REACTED_BY_SHOWN + 3; i++) reactors.push(await forumCouple());
    await reactInOrder(post.id, null, reactors, "heart");
    await reactInOrder(post.id, reply.id, reactors, "hug");

    const thread = (await forum.thread(post.id, us.a.headers)).json.data;
    expect(thread.post.reactions.heart).toBe(REACTED_BY_SHOWN + 3);
    expect(thread.post.reactedBy.heart).toEqual(reactors.slice(0, REACTED_BY_SHOWN).map((c) => sign(c)));
    expect(thread.replies[0].reactions.hug).toBe(REACTED_BY_SHOWN + 3);
    expect(thread.replies[0].reactedBy.hug).toEqual(reactors.slice(0, REACTED_BY_SHOWN).map((c) => sign(c)));
    const listed = (await forum.list("?scope=global&sort=new&limit=50", us.a.headers)).json.data.find(
      (p: { id: string }) => p.id === post.id,
    );
    expect(listed.reactions.heart).toBe(REACTED_BY_SHOWN + 3);
  });

  it("never names nor counts a couple blocked either way", async () => {
    const us = await forumCouple();
    const friend = await forumCouple();
    const blocked = await forumCouple();
    const blocker = await forumCouple();
    const post = (await forum.create(postBody(), us.a.headers)).json.data as { id: string };
    const reply = (await forum.reply(post.id, { body: "Hello" }, friend.a.headers)).json.data as { id: string };
    for (const couple of [blocked, friend, blocker]) {
      await forum.react("post", post.id, "clap", true, couple.a.headers);
      await forum.react("reply", reply.id, "clap", true, couple.a.headers);
    }
    expect((await block(blocked.coupleId, us.a.headers)).status).toBeLessThan(300);
    expect((await block(us.coupleId, blocker.b.headers)).status).toBeLessThan(300);

    const thread = (await forum.thread(post.id, us.b.headers)).json.data;
    expect(thread.post.reactions.clap).toBe(1);
    expect(thread.post.reactedBy.clap).toEqual([sign(friend)]);
    expect(thread.replies[0].reactedBy.clap).toEqual([sign(friend)]);
    const listed = (await forum.list("?scope=global&sort=new&limit=50", us.b.headers)).json.data.find(
      (p: { id: string }) => p.id === post.id,
    );
    expect(listed.reactions.clap).toBe(1);
    expect(JSON.stringify(listed)).not.toContain(blocked.name);
    // The friend, who blocked nobody, sees all three.
    const theirs = (await forum.thread(post.id, friend.b.headers)).json.data;
    expect(theirs.post.reactedBy.clap).toEqual([sign(blocked), sign(friend), sign(blocker)]);
  });
});
