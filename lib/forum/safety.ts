import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { forumPosts, forumReplies } from "@/db/schema";
import { notBlockedBetween } from "@/lib/safety/blocks";
import type { SafetyReactions } from "@/lib/safety/reactions";
import { withdrawNotifications } from "@/lib/notifications/service";
import { quoting, waitingQuoting } from "./notices";
import { holdNamedRows } from "./named-rows";
import { dropPostPhotos } from "./photos";
import { redateLastActivity } from "./activity";

/**
 * A post's stored reply count is its replies neither deleted nor removed: counted again once a
 * moderator removes one (a reply can be reported, so removed, again after it was). The post's row
 * is locked first, so a reply written meanwhile is either counted here or adds itself after.
 */
async function countRepliesAgain(tx: Db, replyId: string): Promise<void> {
  const [reply] = await tx.select({ postId: forumReplies.postId }).from(forumReplies).where(eq(forumReplies.id, replyId));
  if (!reply) return;
  await tx.select({ id: forumPosts.id }).from(forumPosts).where(eq(forumPosts.id, reply.postId)).for("update");
  await tx
    .update(forumPosts)
    .set({
      replyCount: sql`(select count(*) from ${forumReplies} where ${and(
        eq(forumReplies.postId, reply.postId),
        isNull(forumReplies.deletedAt),
        isNull(forumReplies.removedAt),
      )})::int`,
    })
    .where(eq(forumPosts.id, reply.postId));
}

/** A reply hidden by reports, or shown again, dates its post's last activity again (./activity.ts). */
async function redateLastActivityOf(tx: Db, replyId: string): Promise<void> {
  const [reply] = await tx.select({ postId: forumReplies.postId }).from(forumReplies).where(eq(forumReplies.id, replyId));
  if (reply) await redateLastActivity(tx, reply.postId);
}

/**
 * A removed post or reply, or one hidden by reports, leaves no copy behind in the notifications and
 * waiting pushes that quoted it (./notices.ts): hidden, its words are for its own couple and the
 * moderators only (the author's own reaction notices go too, one rule for all). They stay
 * withdrawn if a moderator shows it again: the thread has it back, and no notice is sent anew for
 * what may be days old.
 */
async function withdrawNoticesOf(tx: Db, targetType: "post" | "reply", id: string): Promise<void> {
  const [text] =
    targetType === "post"
      ? await tx.select({ authorUserId: forumPosts.authorUserId, postId: forumPosts.id }).from(forumPosts).where(eq(forumPosts.id, id))
      : await tx
          .select({ authorUserId: forumReplies.authorUserId, postId: forumReplies.postId })
          .from(forumReplies)
          .where(eq(forumReplies.id, id));
  // A deleted member's notifications went with them (lib/account/deletion.ts).
  if (!text?.authorUserId) return;
  const quoted = { authorUserId: text.authorUserId, postId: text.postId, replyId: targetType === "reply" ? id : null };
  await withdrawNotifications(tx, quoting(quoted), waitingQuoting(quoted));
}

/**
 * The people a hiding or a removal tells at its commit, whose deletion writes the post or reply:
 * its author (their bell: the reactions' notices withdrawn) and, of a reply, the post's author
 * (their bell: the reply's notice withdrawn; and the post's reply count, locked on a removal).
 */
async function holdAuthorsOf(tx: Db, targetType: "post" | "reply", id: string): Promise<void> {
  const [text] =
    targetType === "post"
      ? await tx
          .select({ authorUserId: forumPosts.authorUserId, postAuthor: forumPosts.authorUserId })
          .from(forumPosts)
          .where(eq(forumPosts.id, id))
      : await tx
          .select({ authorUserId: forumReplies.authorUserId, postAuthor: forumPosts.authorUserId })
          .from(forumReplies)
          .innerJoin(forumPosts, eq(forumPosts.id, forumReplies.postId))
          .where(eq(forumReplies.id, id));
  if (text) await holdNamedRows(tx, [text.authorUserId, text.postAuthor], []);
}

/** The forum's reactions to safety (listed in lib/registry/safety.ts). */
export const forumSafety: SafetyReactions = {
  /** A removed post's photos go, files and all: the URL of a photo taken down stops answering. */
  reportResolved: async (tx, report) => {
    // Hidden no more (dismissed, or removed: a placeholder every reader sees), a reply counts as activity again.
    if (report.targetType === "reply") await redateLastActivityOf(tx, report.targetId);
    if (report.action !== "remove" || (report.targetType !== "post" && report.targetType !== "reply")) return [];
    await withdrawNoticesOf(tx, report.targetType, report.targetId);
    if (report.targetType === "reply") await countRepliesAgain(tx, report.targetId);
    return report.targetType === "post" ? dropPostPhotos(tx, report.targetId) : [];
  },
  holdNamed: async (tx, content) => {
    if (content.targetType === "post" || content.targetType === "reply") await holdAuthorsOf(tx, content.targetType, content.targetId);
  },
  hiddenByReports: async (tx, hidden) => {
    if (hidden.targetType === "post" || hidden.targetType === "reply") await withdrawNoticesOf(tx, hidden.targetType, hidden.targetId);
    if (hidden.targetType === "reply") await redateLastActivityOf(tx, hidden.targetId);
  },
  shows: (tx, lookerCoupleId, coupleId) => showsWordsOf(tx, lookerCoupleId, coupleId),
};

/** SQL: a post or reply others may read (`listed` in db/schema/forum.ts: not deleted, hidden by reports, or removed). */
const readable = (t: typeof forumPosts | typeof forumReplies) => and(isNull(t.deletedAt), isNull(t.hiddenAt), isNull(t.removedAt));

/**
 * The forum shows the looker's couple words of this couple, hidden from the directory or not (the
 * forum names a hidden couple on its words): a post, or a reply in a thread the looker reads, and
 * no block either way. On forum_posts_couple_idx and forum_replies_couple_post_idx.
 */
async function showsWordsOf(tx: Db, lookerCoupleId: string, coupleId: string): Promise<boolean> {
  const post = tx
    .select({ one: sql`1` })
    .from(forumPosts)
    .where(and(eq(forumPosts.coupleId, coupleId), readable(forumPosts)));
  const reply = tx
    .select({ one: sql`1` })
    .from(forumReplies)
    .innerJoin(forumPosts, eq(forumPosts.id, forumReplies.postId))
    .where(
      and(
        eq(forumReplies.coupleId, coupleId),
        readable(forumReplies),
        readable(forumPosts),
        notBlockedBetween(lookerCoupleId, forumPosts.coupleId),
      ),
    );
  const [row] = await tx
    .select({ shown: sql<boolean>`${notBlockedBetween(lookerCoupleId, coupleId)} and (exists (${post}) or exists (${reply}))` })
    .from(sql`(select 1) as one`);
  return row?.shown === true;
}
