import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as listRoute } from "@/app/api/notifications/route";
import { getDb } from "@/db/client";
import { coupleBlocks, couples, notifications } from "@/db/schema";
import { call } from "../support/api";
import { ownImage } from "../support/couples";
import { forum, forumCouple, postBody, type Headers, type TestCouple } from "../support/forum";
import { whileWriteHeld } from "../support/lock-race";
import { block, unblock } from "../support/messages";
import { onPostgres } from "../support/test-database";

const listed = async (h: Headers) =>
  (await call(listRoute, "GET", "/api/notifications", { headers: { cookie: h.cookie! } })).json.data as {
    type: string;
    title: string;
    actor_couple_name: string | null;
    triggered_by_couple_name: string | null;
    actor_profile_image_url: string | null;
  }[];

async function reactionRows(userId: string) {
  const db = await getDb();
  return db
    .select({ title: notifications.title, actorUserId: notifications.actorUserId, actorCoupleId: notifications.actorCoupleId })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, "reaction")));
}

/** A couple with a main photo, so a notification that pictured it would show. */
async function pictured(options: { visible: boolean }): Promise<TestCouple> {
  const couple = await forumCouple(options);
  const db = await getDb();
  await db.update(couples).set({ profileImageUrl: ownImage() }).where(eq(couples.id, couple.coupleId));
  return couple;
}

describe("a reaction's notification names only a couple the author may see", () => {
  it("a hidden couple's reaction: 'A couple reacted to your post', with no couple name or picture", async () => {
    const us = await forumCouple();
    const hidden = await pictured({ visible: false });
    const post = (await forum.create(postBody(), us.a.headers)).json.data as { id: string };
    expect((await forum.react("post", post.id, "heart", true, hidden.a.headers)).status).toBe(200);

    // The actor is kept (a block or a suspension since takes the notice away), shown to no one who may not see it.
    expect(await reactionRows(us.a.userId)).toEqual([
      { title: "A couple reacted to your post", actorUserId: hidden.a.userId, actorCoupleId: hidden.coupleId },
    ]);
    const [item] = (await listed(us.a.headers)).filter((n) => n.type === "reaction");
    expect(item).toMatchObject({
      title: "A couple reacted to your post",
      actor_couple_name: null,
      triggered_by_couple_name: null,
      actor_profile_image_url: null,
    });
    expect(JSON.stringify(await listed(us.a.headers))).not.toContain(hidden.name);
  });

  it("a visible couple keeps the spec's text, named and pictured; the hidden one reacting after it is counted, not named", async () => {
    const us = await forumCouple();
    const seen = await pictured({ visible: true });
    const hidden = await pictured({ visible: false });
    const post = (await forum.create(postBody(), us.a.headers)).json.data as { id: string };
    const reply = (await forum.reply(post.id, { body: "Our reply" }, us.b.headers)).json.data as { id: string };

    await forum.react("reply", reply.id, "hug", true, seen.a.headers);
    let [item] = (await listed(us.b.headers)).filter((n) => n.type === "reaction");
    expect(item).toMatchObject({ title: `${seen.name} reacted to your reply`, actor_couple_name: seen.name });
    expect(item!.actor_profile_image_url).not.toBeNull();

    await forum.react("reply", reply.id, "heart", true, hidden.b.headers);
    [item] = (await listed(us.b.headers)).filter((n) => n.type === "reaction");
    expect(item).toMatchObject({
      title: "A couple and 1 other reacted to your reply",
      actor_couple_name: null,
      actor_profile_image_url: null,
    });
  });

  it("a hidden couple's reaction goes from the bell once either couple blocks the other, and comes back with the unblock", async () => {
    for (const blocking of ["author", "reactor"] as const) {
      const us = await forumCouple();
      const hidden = await forumCouple({ visible: false });
      const post = (await forum.create(postBody(), us.a.headers)).json.data as { id: string };
      await forum.react("post", post.id, "heart", true, hidden.a.headers);
      const reactions = async () => (await listed(us.a.headers)).filter((n) => n.type === "reaction").map((n) => n.title);
      expect(await reactions(), blocking).toEqual(["A couple reacted to your post"]);

      const [by, other] = blocking === "author" ? [us, hidden] : [hidden, us];
      if (blocking === "author") {
        // A hidden couple is unknown to the author (their reaction names no one): blocking it answers
        // as an unknown id does. A block made while it was still visible stands, and counts.
        expect((await block(other.coupleId, by.a.headers)).status, blocking).toBe(404);
        await (await getDb()).insert(coupleBlocks).values({ blockerCoupleId: by.coupleId, blockedCoupleId: other.coupleId });
      } else expect((await block(other.coupleId, by.a.headers)).status, blocking).toBeLessThan(300);
      expect(await reactions(), blocking).toEqual([]);
      expect((await unblock(other.coupleId, by.a.headers)).status, blocking).toBeLessThan(300);
      expect(await reactions(), blocking).toEqual(["A couple reacted to your post"]);
    }
  });

  it("a hidden couple's own partner is still named by first name", async () => {
    const hidden = await forumCouple({ visible: false });
    const post = (await forum.create(postBody(), hidden.a.headers)).json.data as { id: string };
    await forum.react("post", post.id, "heart", true, hidden.b.headers);
    expect(await reactionRows(hidden.a.userId)).toEqual([
      { title: `${hidden.b.firstName} reacted to your post`, actorUserId: hidden.b.userId, actorCoupleId: hidden.coupleId },
    ]);
  });
});

describe.skipIf(!onPostgres())("a reaction under way while the author's couple blocks the reacting one", () => {
  it("lands before the block (which waits for it), never after: no notice of it reaches the author, named or not", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = (await forum.create(postBody(), us.a.headers)).json.data as { id: string };
    // The reaction held at the post's count (its target read, the reaction written), the block made meanwhile.
    const { write: reacted, actionWaited } = await whileWriteHeld(
      (tx) => tx`select id from forum_posts where id = ${post.id} for update`,
      () => forum.react("post", post.id, "heart", true, them.a.headers),
      () => block(them.coupleId, us.a.headers),
    );
    expect((await listed(us.a.headers)).filter((notice) => notice.type === "reaction")).toEqual([]);
    expect(reacted.status).toBe(200);
    expect(actionWaited, "the block waited for it").toBe(true);
  });
});
