import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { DELETE as deleteAccountRoute } from "@/app/api/account/route";
import { GET as mentionsRoute } from "@/app/api/forum/mentions/route";
import { getDb } from "@/db/client";
import { couples, forumPosts, forumReactions, forumTopWindow } from "@/db/schema";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Db } from "@/db/client";
import {
  countTopReaction,
  decayTopScores,
  keepTopWindowFresh,
  TOP_DECAY_EVERY_MS,
  rebuildTopScores,
  rebuildTopScoresIfDue,
} from "@/lib/forum/top";
import { runDueWork } from "@/lib/scheduled/service";
import { whileHeld } from "../support/lock-race";
import { onPostgres } from "../support/test-database";
import { PASSWORD, call } from "../support/api";
import { forum, forumCouple, seedPosts } from "../support/forum";
import { queryPlan } from "../support/query-plan";

const DAY_MS = 24 * 60 * 60 * 1000;

async function scoreOf(postId: string) {
  const db = await getDb();
  const [row] = await db.select({ topScore: forumPosts.topScore }).from(forumPosts).where(eq(forumPosts.id, postId));
  return row!.topScore;
}

const topIds = async (headers: Record<string, string>) =>
  ((await forum.list("?topic=meetups&sort=top&limit=50", headers)).json.data as { id: string }[]).map((p) => p.id);

describe("Top's stored 7-day counter", () => {
  it("counts a reaction at once, uncounts it when removed, and lets it go when it leaves the 7 days", async () => {
    const us = await forumCouple();
    const fan = await forumCouple();
    const [post, other] = await seedPosts(us.coupleId, us.a.userId, 2, { topic: "meetups" });
    await forum.react("post", post!.id, "heart", true, fan.a.headers);
    await forum.react("post", post!.id, "heart", true, fan.a.headers); // idempotent: counted once
    await forum.react("post", post!.id, "clap", true, fan.b.headers);
    const reply = (await forum.reply(post!.id, { body: "Count me in" }, fan.a.headers)).json.data as { id: string };
    await forum.react("reply", reply.id, "hug", true, us.a.headers); // a reply's reaction is not the post's
    expect(await scoreOf(post!.id)).toBe(2);
    expect(await topIds(us.a.headers)).toContain(post!.id);
    expect(await topIds(us.a.headers)).not.toContain(other!.id);

    await forum.react("post", post!.id, "clap", false, fan.b.headers);
    await forum.react("post", post!.id, "clap", false, fan.b.headers);
    expect(await scoreOf(post!.id)).toBe(1);

    // The heart was given almost 7 days ago: once the window moves past it, the post drops out of Top.
    const db = await getDb();
    await db
      .update(forumReactions)
      .set({ createdAt: new Date(Date.now() - 7 * DAY_MS + 60_000) })
      .where(eq(forumReactions.postId, post!.id));
    await decayTopScores(db, new Date(Date.now() - 60_000));
    expect(await scoreOf(post!.id)).toBe(1);
    await decayTopScores(db, new Date(Date.now() + 120_000));
    expect(await scoreOf(post!.id)).toBe(0);
    expect(await topIds(us.a.headers)).not.toContain(post!.id);

    // Removing a reaction that already left the window takes nothing off another's count.
    await forum.react("post", other!.id, "wow", true, fan.a.headers);
    await forum.react("post", post!.id, "heart", false, fan.a.headers);
    expect(await scoreOf(post!.id)).toBe(0);
    expect(await scoreOf(other!.id)).toBe(1);
  });

  it("stops counting a deleted account's reactions at once, those inside the 7 days only", async () => {
    const us = await forumCouple();
    const fan = await forumCouple();
    const [post, older] = await seedPosts(us.coupleId, us.a.userId, 2, { topic: "meetups" });
    await forum.react("post", post!.id, "heart", true, fan.a.headers);
    await forum.react("post", post!.id, "clap", true, fan.a.headers);
    await forum.react("post", post!.id, "heart", true, fan.b.headers);
    await forum.react("post", older!.id, "heart", true, fan.a.headers);
    await forum.react("post", older!.id, "heart", true, us.b.headers);
    const reply = (await forum.reply(post!.id, { body: "See you there" }, us.b.headers)).json.data as { id: string };
    await forum.react("reply", reply.id, "hug", true, fan.a.headers); // a reply's reaction is not the post's
    // Fan A's heart on the older post left the window already: the window moved past it.
    const db = await getDb();
    await db
      .update(forumReactions)
      .set({ createdAt: new Date(Date.now() - 8 * DAY_MS) })
      .where(and(eq(forumReactions.postId, older!.id), eq(forumReactions.userId, fan.a.userId)));
    await rebuildTopScores(db);
    expect([await scoreOf(post!.id), await scoreOf(older!.id)]).toEqual([3, 1]);

    const removed = await call(deleteAccountRoute, "DELETE", "/api/account", { body: { password: PASSWORD }, headers: fan.a.headers });
    expect(removed.status).toBe(200);
    expect([await scoreOf(post!.id), await scoreOf(older!.id)]).toEqual([1, 1]);
    await rebuildTopScores(db);
    expect([await scoreOf(post!.id), await scoreOf(older!.id)]).toEqual([1, 1]);
  });

  it("rebuilds the scores from the reactions of the last 7 days (after a seed writes them directly)", async () => {
    const us = await forumCouple();
    const fan = await forumCouple();
    const [fresh, old] = await seedPosts(us.coupleId, us.a.userId, 2, { topic: "meetups" });
    const db = await getDb();
    await db.insert(forumReactions).values([
      { postId: fresh!.id, userId: fan.a.userId, coupleId: fan.coupleId, kind: "heart", createdAt: new Date(Date.now() - DAY_MS) },
      { postId: fresh!.id, userId: fan.b.userId, coupleId: fan.coupleId, kind: "heart", createdAt: new Date(Date.now() - 2 * DAY_MS) },
      { postId: old!.id, userId: fan.a.userId, coupleId: fan.coupleId, kind: "heart", createdAt: new Date(Date.now() - 8 * DAY_MS) },
    ]);
    await rebuildTopScores(db);
    expect(await scoreOf(fresh!.id)).toBe(2);
    expect(await scoreOf(old!.id)).toBe(0);
  });

  it("repairs drift once a day per database: one of the instances checking at once rebuilds", async () => {
    const us = await forumCouple();
    const fan = await forumCouple();
    const [post] = await seedPosts(us.coupleId, us.a.userId, 1, { topic: "meetups" });
    await forum.react("post", post!.id, "heart", true, fan.a.headers);
    const db = await getDb();
    const drift = () => db.update(forumPosts).set({ topScore: 7 }).where(eq(forumPosts.id, post!.id));
    await drift();
    // Rebuilt less than a day ago: not due, the drift stays.
    await db.update(forumTopWindow).set({ rebuiltAt: new Date(Date.now() - DAY_MS + 60_000) });
    expect(await rebuildTopScoresIfDue(db)).toBe(false);
    expect(await scoreOf(post!.id)).toBe(7);
    // A day old: exactly one of two concurrent checks rebuilds, and the count is right again.
    await db.update(forumTopWindow).set({ rebuiltAt: new Date(Date.now() - DAY_MS - 60_000) });
    expect((await Promise.all([rebuildTopScoresIfDue(db), rebuildTopScoresIfDue(db)])).filter(Boolean)).toHaveLength(1);
    expect(await scoreOf(post!.id)).toBe(1);
    const [window] = await db.select().from(forumTopWindow);
    expect(Date.now() - window!.rebuiltAt.getTime()).toBeLessThan(60_000);
    // Done for the day.
    await drift();
    expect(await rebuildTopScoresIfDue(db)).toBe(false);
    expect(await scoreOf(post!.id)).toBe(7);
  });

  it("rebuilds a day-old Top in the due work, never inside a Top page's request", async () => {
    const us = await forumCouple();
    const fan = await forumCouple();
    const [post] = await seedPosts(us.coupleId, us.a.userId, 1, { topic: "meetups" });
    await forum.react("post", post!.id, "heart", true, fan.a.headers);
    const db = await getDb();
    await db.update(forumPosts).set({ topScore: 7 }).where(eq(forumPosts.id, post!.id));
    const dayOld = new Date(Date.now() - DAY_MS - 60_000);
    // The window moved a minute ago (so a page moves it again), the rebuild a day old.
    await db.update(forumTopWindow).set({ rebuiltAt: dayOld, decayedUntil: new Date(Date.now() - 60_000) });
    // A minute on in this process, whose last check is then a minute old too.
    const later = vi.spyOn(Date, "now").mockReturnValue(Date.now() + TOP_DECAY_EVERY_MS);
    await keepTopWindowFresh(db).finally(() => later.mockRestore());
    expect(await topIds(fan.b.headers)).toContain(post!.id);
    const [read] = await db.select().from(forumTopWindow);
    // The page's check moved the window, and left the rebuild (and so the drift) to the due work.
    expect(Date.now() - read!.decayedUntil.getTime()).toBeLessThan(60_000);
    expect(read!.rebuiltAt).toEqual(dayOld);
    expect(await scoreOf(post!.id)).toBe(7);
    expect((await runDueWork(db)).topRebuilt).toBe(true);
    expect(await scoreOf(post!.id)).toBe(1);
    // Done for the day: the next run leaves it.
    expect((await runDueWork(db)).topRebuilt).toBe(false);
  });

  it.skipIf(!onPostgres())("loses no reaction counted while a rebuild runs: a stale score repaired at that instant keeps it", async () => {
    const us = await forumCouple();
    const fan = await forumCouple();
    const [post] = await seedPosts(us.coupleId, us.a.userId, 1, { topic: "meetups" });
    await forum.react("post", post!.id, "heart", true, fan.a.headers);
    const db = await getDb();
    // A score the rebuild will repair (a reaction left the 7 days since the window last moved, say).
    await db.update(forumPosts).set({ topScore: 5 }).where(eq(forumPosts.id, post!.id));
    const options = postgres(process.env.DATABASE_URL!);
    // A second reaction is written and counted on another connection, and commits once the rebuild waits on it.
    await whileHeld(
      async (tx) => {
        await tx`insert into forum_reactions (post_id, user_id, couple_id, kind) values (${post!.id}, ${fan.b.userId}, ${fan.coupleId}, 'clap')`;
        // The app's own count, run on that connection (a reserved connection lacks the client's options drizzle reads).
        await countTopReaction(drizzle(Object.assign(tx, { options: options.options })) as unknown as Db, post!.id);
      },
      [() => rebuildTopScores(db)],
    );
    await options.end();
    expect(await scoreOf(post!.id)).toBe(2);
  });

  it("reads a Top page from its keyset index, never counting reactions", async () => {
    const text = await queryPlan(sql`select id from forum_posts
      where scope = 'global' and deleted_at is null and hidden_at is null and removed_at is null and top_score > 0
      order by top_score desc, id desc limit 21`);
    expect(text).toContain("forum_posts_top_idx");
    expect(text).not.toContain("forum_reactions");
  });
});

describe("the local forum's box", () => {
  it("is read from the GiST point index, not a band of latitude around the world", async () => {
    const plan = await queryPlan(sql`select id from forum_posts
      where scope = 'local' and deleted_at is null and hidden_at is null and removed_at is null
        and point(longitude, latitude) <@ box(point(-9.8, 38.2), point(-8.5, 39.2))`);
    expect(plan).toContain("forum_posts_local_box_idx");
  });
});

describe("mention suggestions by the words of couple names", () => {
  it("finds a couple by the start of any word of its name, several words too, and ignores punctuation", async () => {
    const tag = `Wq${Date.now().toString(36)}`.replace(/\d/g, (d) => "abcdefghij"[Number(d)]!);
    const me = await forumCouple();
    const them = await forumCouple({ name: `Marisol & ${tag}thaddeus` });
    const search = async (q: string) =>
      (
        (await call(mentionsRoute, "GET", `/api/forum/mentions?q=${encodeURIComponent(q)}`, { headers: { cookie: me.a.headers.cookie! } }))
          .json.data as { coupleId: string }[]
      ).map((c) => c.coupleId);
    expect(await search(tag.slice(0, 4))).toContain(them.coupleId);
    expect(await search(`marisol ${tag}`)).toEqual([them.coupleId]);
    expect(await search(`${tag}th & ma`)).toEqual([them.coupleId]);
    expect(await search(`${tag}zz`)).toEqual([]);
    expect(await search("'&:*")).toEqual([]);
    // The plan uses the words index.
    const plan = await queryPlan(
      sql`select id from ${couples} where to_tsvector('simple', couple_name) @@ to_tsquery('simple', 'marisol:*')`,
    );
    expect(plan).toContain("couples_name_words_idx");
  });
});
