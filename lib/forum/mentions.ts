import "server-only";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, forumMentions, locations } from "@/db/schema";
import { shownPoint } from "@/lib/directory/nearest";
import { notBlockedBetween } from "@/lib/safety/blocks";
import { seenByOther } from "@/lib/safety/visibility";
import type { ActingCouple } from "@/lib/membership/acting-couple";
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

/** How many suggestions the composer shows. */
export const MENTION_SUGGESTIONS_MAX = 8;

/**
 * Couples the actor may mention with a name whose words start with the query's words: the
 * couples they may see (lib/safety/visibility.ts: discoverable, not their own, not blocked either
 * way). Hidden couples' posts stay readable, but nobody can find them here. Served by the GIN index on the name's
 * words (`couples_name_words_idx`), so it stays indexed at 100,000 couples.
 *
 * Best match first (the whole name, then a name that starts with what was typed, then any word
 * that does), then the couples nearest the writer (both shown points, at each place's privacy
 * level, as the directory measures them), then by name: a couple typed in full is never hidden
 * behind eight others that merely share a word with it.
 */
export async function mentionSuggestions(db: Db, actor: ActingCouple, q: string): Promise<MentionSuggestion[]> {
  const words = mentionPrefixQuery(q);
  if (!words) return [];
  const typed = q.trim().toLowerCase();
  const name = sql`lower(${couples.coupleName})`;
  const match = sql`case when ${name} = ${typed} then 0 when starts_with(${name}, ${typed}) then 1 else 2 end`;
  const writerPoint = sql`(select shown_point(w.privacy_level, w.latitude, w.longitude) from locations w
    where w.entity_type = 'couple' and w.entity_id = ${actor.coupleId})`;
  return db
    .select({ coupleId: couples.id, name: couples.coupleName, imageUrl: couples.profileImageUrl })
    .from(couples)
    .leftJoin(locations, and(eq(locations.entityType, "couple"), eq(locations.entityId, couples.id)))
    .where(
      and(seenByOther({ coupleId: actor.coupleId }), sql`to_tsvector('simple', ${couples.coupleName}) @@ to_tsquery('simple', ${words})`),
    )
    .orderBy(asc(match), sql`${shownPoint} <-> ${writerPoint} asc nulls last`, asc(couples.coupleName), asc(couples.id))
    .limit(MENTION_SUGGESTIONS_MAX);
}

/** The validated mentions of posts (and, with replies, of replies), without couples blocked either way. */
export async function mentionsOf(db: Db, actor: ActingCouple, postIds: string[], withReplies: boolean) {
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
