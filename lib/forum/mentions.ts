import "server-only";
import { and, asc, eq, isNull, or, sql, type Column, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { jsonObject } from "@/db/json";
import { placeholderSql, preparedPer } from "@/db/prepared";
import { couples, forumMentions, locations, users } from "@/db/schema";
import { shownPoint } from "@/lib/directory/nearest";
import { notBlockedBetween } from "@/lib/safety/blocks";
import { seenByOther, seenByViewer } from "@/lib/safety/visibility";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import type { ForumMention, Target } from "./projections";

/** A couple to mention; `partner` is the first name that matched what was typed, when one did. */
export type MentionSuggestion = { coupleId: string; name: string; imageUrl: string | null; partner: string | null };

/**
 * The words of a mention query as a prefix search over the words of couple names ("ma th" finds
 * "Marisol & Thaddeus"), or null when it has no letter or digit. Only letters and digits reach
 * to_tsquery, so nothing typed can change the query's syntax.
 */
export function mentionPrefixQuery(q: string): string | null {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  return words ? words.map((word) => `${word}:*`).join(" & ") : null;
}

/** What was typed as a LIKE prefix of a first name: its wildcards taken as letters. */
export const firstNamePrefix = (q: string) =>
  `${q
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** How many suggestions the composer shows. */
export const MENTION_SUGGESTIONS_MAX = 8;

const partnerA = alias(users, "mention_partner_a");
const partnerB = alias(users, "mention_partner_b");

/**
 * Couples the actor may mention, found by the words of their name ("ma th" finds "Marisol & Thaddeus")
 * or by a partner's first name typed from its start ("@An" finds the couple Andre is in, and says
 * it was Andre): the couples they may see (lib/safety/visibility.ts: discoverable, not their own,
 * not blocked either way). Hidden couples' posts stay readable, but nobody can find them here.
 * Served by the GIN index on the name's words (`couples_name_words_idx`) and the first-name
 * prefix index (`users_first_name_prefix_idx`), so it stays indexed at 100,000 couples.
 *
 * Best match first (the whole name, then a name or a partner's first name that starts with what
 * was typed, then any word that does), then the couples nearest the writer (both shown points,
 * at each place's privacy level, as the directory measures them), then by name: a couple typed in
 * full is never hidden behind eight others that merely share a word with it.
 */
export async function mentionSuggestions(db: Db, actor: ActingCouple, q: string): Promise<MentionSuggestion[]> {
  const words = mentionPrefixQuery(q);
  if (!words) return [];
  const typed = q.trim().toLowerCase();
  const prefix = firstNamePrefix(q);
  const name = sql`lower(${couples.coupleName})`;
  const startsA = sql`lower(${partnerA.firstName}) like ${prefix}`;
  const startsB = sql`lower(${partnerB.firstName}) like ${prefix}`;
  const byFirstName = (column: typeof couples.partner1Id | typeof couples.partner2Id) =>
    sql`${column} in (select ${users.id} from ${users} where lower(${users.firstName}) like ${prefix})`;
  const match = sql`case when ${name} = ${typed} then 0 when starts_with(${name}, ${typed}) or ${startsA} or ${startsB} then 1 else 2 end`;
  const writerPoint = sql`(select shown_point(w.privacy_level, w.latitude, w.longitude) from locations w
    where w.entity_type = 'couple' and w.entity_id = ${actor.coupleId})`;
  return db
    .select({
      coupleId: couples.id,
      name: couples.coupleName,
      imageUrl: couples.profileImageUrl,
      partner: sql<string | null>`case when ${startsA} then ${partnerA.firstName} when ${startsB} then ${partnerB.firstName} end`,
    })
    .from(couples)
    .leftJoin(partnerA, eq(partnerA.id, couples.partner1Id))
    .leftJoin(partnerB, eq(partnerB.id, couples.partner2Id))
    .leftJoin(locations, and(eq(locations.entityType, "couple"), eq(locations.entityId, couples.id)))
    .where(
      and(
        seenByOther({ coupleId: actor.coupleId }),
        or(
          sql`to_tsvector('simple', ${couples.coupleName}) @@ to_tsquery('simple', ${words})`,
          byFirstName(couples.partner1Id),
          byFirstName(couples.partner2Id),
        ),
      ),
    )
    .orderBy(asc(match), sql`${shownPoint} <-> ${writerPoint} asc nulls last`, asc(couples.coupleName), asc(couples.id))
    .limit(MENTION_SUGGESTIONS_MAX);
}

export type MentionRow = { postId: string; replyId: string | null; coupleId: string; name: string };

/** Who `rows` mention, looked up by post or reply. */
export const mentionLookup =
  (rows: readonly MentionRow[]) =>
  (target: Target): ForumMention[] =>
    rows
      .filter((row) => row.postId === target.postId && row.replyId === target.replyId)
      .map((row) => ({ coupleId: row.coupleId, name: row.name }));

/**
 * SQL: the mentions in the post itself, or in a reply; each by its own partial unique index (a long
 * thread's mentions are never read to find one reply's).
 */
export const inPost = (postId: SQL | Column) => and(eq(forumMentions.postId, postId), isNull(forumMentions.replyId))!;
export const inReply = (replyId: SQL | Column) => eq(forumMentions.replyId, replyId);

/** Prepared: every post and reply written or changed reads its own. */
const mentionsOfPost = preparedPer((db) =>
  mentionRows(db, placeholderSql("coupleId"), inPost(placeholderSql("targetId"))).prepare("forum_post_mentions"),
);
const mentionsOfReply = preparedPer((db) =>
  mentionRows(db, placeholderSql("coupleId"), inReply(placeholderSql("targetId"))).prepare("forum_reply_mentions"),
);

/**
 * The validated mentions of one post (replyId null) or reply, of couples the viewer may see
 * (lib/safety/visibility.ts): one blocked either way, hidden or suspended since is plain text.
 */
export async function targetMentions(db: Db, actor: ActingCouple, target: Target) {
  const read = target.replyId ? mentionsOfReply : mentionsOfPost;
  const rows = await read(db).execute({ targetId: target.replyId ?? target.postId, coupleId: actor.coupleId });
  return mentionLookup(rows.map(({ row }) => row));
}

/** The mentions `where` chooses, of couples the viewer may see, each as one JSON `row`. */
export function mentionRows(db: Db, viewerCouple: string | SQL, where: SQL) {
  return db
    .select({
      row: jsonObject<MentionRow>({
        postId: forumMentions.postId,
        replyId: forumMentions.replyId,
        coupleId: couples.id,
        name: couples.coupleName,
      }).as("row"),
    })
    .from(forumMentions)
    .innerJoin(couples, eq(couples.id, forumMentions.mentionedCoupleId))
    .where(and(where, notBlockedBetween(viewerCouple, couples.id), seenByViewer(viewerCouple)));
}
