import "server-only";
import { and, asc, eq, ne, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples } from "@/db/schema";
import { notBlockedBetween } from "@/lib/safety/blocks";
import type { ForumActor } from "./actor";

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
 * Couples the actor may mention with a name whose words start with the query's words:
 * discoverable (active and visible), not their own, not blocked either way. Hidden couples'
 * posts stay readable, but nobody can find them here. Served by the GIN index on the name's
 * words (`couples_name_words_idx`), so it stays indexed at 100,000 couples.
 */
export async function mentionSuggestions(db: Db, actor: ForumActor, q: string): Promise<MentionSuggestion[]> {
  const words = mentionPrefixQuery(q);
  if (!words) return [];
  return db
    .select({ coupleId: couples.id, name: couples.coupleName, imageUrl: couples.profileImageUrl })
    .from(couples)
    .where(and(mentionable(actor), sql`to_tsvector('simple', ${couples.coupleName}) @@ to_tsquery('simple', ${words})`))
    .orderBy(asc(couples.coupleName))
    .limit(8);
}

/** The couples (rows of `couples`) the actor may mention. */
export function mentionable(actor: ForumActor): SQL {
  return and(
    eq(couples.status, "active"),
    eq(couples.isVisible, true),
    ne(couples.id, actor.coupleId),
    notBlockedBetween(actor.coupleId, couples.id),
  )!;
}
