/**
 * The demo forum (lib/demo/forum-data.ts) written for the demo couples. Idempotent: the demo
 * couples' posts are deleted (their replies, reactions and mentions go with them) and written
 * again, with the fixed ids the demo inbox links to.
 */
import { randomUUID } from "node:crypto";
import { inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { forumMentions, forumPosts, forumReactions, forumReplies } from "@/db/schema";
import { cityLevelPlace } from "@/lib/forum/place";
import { rebuildTopScores } from "@/lib/forum/top";
import { DEMO_POSTS } from "./forum-data";
import { DEMO_COUPLES, type Place } from "./data";

export type SeededPeople = Map<string, { userId: string; coupleId: string }>;

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 60 * 60 * 1000);

/** The place a local post shows: the couple's, at city level, as the API would store it. */
function localPlace(place: Place) {
  return cityLevelPlace({ ...place, id: "", displayLocation: place.location, privacyLevel: "city" });
}

export async function seedForum(db: Db, people: SeededPeople): Promise<{ posts: number; replies: number; reactions: number }> {
  const who = (firstName: string) => {
    const person = people.get(firstName);
    if (!person) throw new Error(`the demo forum names ${firstName}, who is not a demo person`);
    return person;
  };
  const placeOf = new Map(
    DEMO_COUPLES.flatMap((c) => [[c.partnerA.firstName, c.place] as const, [c.partnerB.firstName, c.place] as const]),
  );
  await db.delete(forumPosts).where(inArray(forumPosts.coupleId, [...new Set([...people.values()].map((p) => p.coupleId))]));

  const posts: (typeof forumPosts.$inferInsert)[] = [];
  const replies: (typeof forumReplies.$inferInsert)[] = [];
  const reactions: (typeof forumReactions.$inferInsert)[] = [];
  const mentions: (typeof forumMentions.$inferInsert)[] = [];
  for (const demo of DEMO_POSTS) {
    const postId = demo.id ?? randomUUID();
    const author = who(demo.by);
    const replyIds = demo.replies.map((reply) => reply.id ?? randomUUID());
    const lastReply = Math.min(demo.hoursAgo, ...demo.replies.map((reply) => reply.hoursAgo));
    const place = demo.scope === "local" ? localPlace(placeOf.get(demo.by)!) : null;
    posts.push({
      id: postId,
      authorUserId: author.userId,
      coupleId: author.coupleId,
      scope: demo.scope,
      topic: demo.topic,
      title: demo.title,
      body: demo.body,
      ...(place ?? {}),
      replyCount: demo.replies.length,
      createdAt: hoursAgo(demo.hoursAgo),
      editedAt: demo.editedHoursAgo === undefined ? null : hoursAgo(demo.editedHoursAgo),
      lastActivityAt: hoursAgo(lastReply),
    });
    for (const name of demo.mentions ?? [])
      mentions.push({ postId, mentionedCoupleId: who(name).coupleId, createdAt: hoursAgo(demo.hoursAgo) });
    for (const [name, kind] of demo.reactions) {
      const reactor = who(name);
      reactions.push({
        postId,
        userId: reactor.userId,
        coupleId: reactor.coupleId,
        kind,
        createdAt: hoursAgo(Math.max(0, demo.hoursAgo - 1)),
      });
    }
    demo.replies.forEach((reply, i) => {
      const replier = who(reply.by);
      replies.push({
        id: replyIds[i],
        postId,
        authorUserId: replier.userId,
        coupleId: replier.coupleId,
        quoteReplyId: reply.quote === undefined ? null : replyIds[reply.quote],
        body: reply.body,
        createdAt: hoursAgo(reply.hoursAgo),
      });
      for (const name of reply.mentions ?? [])
        mentions.push({ postId, replyId: replyIds[i], mentionedCoupleId: who(name).coupleId, createdAt: hoursAgo(reply.hoursAgo) });
    });
  }
  await db.insert(forumPosts).values(posts);
  // Quoted replies first: a quote points at an earlier reply of the same thread.
  if (replies.length) await db.insert(forumReplies).values(replies);
  if (reactions.length) await db.insert(forumReactions).values(reactions);
  // Reactions written straight here count in Top only once the stored scores are counted afresh.
  await rebuildTopScores(db);
  if (mentions.length) await db.insert(forumMentions).values(mentions);
  return { posts: posts.length, replies: replies.length, reactions: reactions.length };
}
