import "server-only";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, forumMentions } from "@/db/schema";
import { notBlockedBetween } from "@/lib/safety/blocks";
import { seenByOther } from "@/lib/safety/visibility";
import type { ForumActor } from "./actor";
import type { ForumMention, Target } from "./projections";

export type MentionSuggestion = { coupleId: string; name: string; imageUrl: string | null };

/**
 * The words of a mention query as a prefix search over the words of couple names ("ma th" finds
 * "Maya & Theo"), or null when it has no letter or digit. Only letters and digits reach
 * to_tsquery, so nothing typed can change the query's syntax.
 */
export function mentionPrefixQuery(q: string): string | null {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  return words ? words.map((word) => `${word}:*`).join(" & ") : null;
}

/**
 * Couples the actor may mention with a name whose words start with the query's words: the
 * couples they may see (lib/safety/visibility.ts: discoverable, not their own, not blocked either
 * way). Hidden couples' posts stay readable, but nobody can find them here. Served by the GIN index on the name's
 * words (`couples_name_words_idx`), so it stays indexed at 100,000 couples.
 */
export async function mentionSuggestions(db: Db, actor: ForumActor, q: string): Promise<MentionSuggestion[]> {
  const words = mentionPrefixQuery(q);
  if (!words) return [];
  return db
    .select({ coupleId: couples.id, name: couples.coupleName, imageUrl: couples.profileImageUrl })
    .from(couples)
    .where(
      and(seenByOther({ coupleId: actor.coupleId }), sql`to_tsvector('simple', ${couples.coupleName}) @@ to_tsquery('simple', ${words})`),
    )
    .orderBy(asc(couples.coupleName))
    .limit(8);
}

/** The validated mentions of posts (and, with replies, of replies), without couples blocked either way. */
export async function mentionsOf(db: Db, actor: ForumActor, postIds: string[], withReplies: boolean) {
  if (postIds.length === 0) return () => [];
  const rows = await db
    .select({ postId: forumMentions.postId, replyId: forumMentions.replyId, coupleId: couples.id, name: couples.coupleName })
    .from(forumMentions)
    .innerJoin(couples, eq(couples.id, forumMentions.mentionedCoupleId))
    .where(
      and(
        inArray(forumMentions.postId, postIds),
        withReplies ? undefined : isNull(forumMentions.replyId),
        notBlockedBetween(actor.coupleId, couples.id),
      ),
    );
  return (target: Target): ForumMention[] =>
    rows
      .filter((row) => row.postId === target.postId && row.replyId === target.replyId)
      .map((row) => ({ coupleId: row.coupleId, name: row.name }));
}
