import "server-only";
import { and, asc, ne, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { couples } from "@/db/schema";
import { coupleIdOf } from "@/lib/couples/queries";
import { discoverableTo } from "@/lib/locations/access";
import { MENTION_QUERY_MIN } from "./text";

/** How many couples the composer's mention listbox offers. */
export const MENTION_SUGGESTIONS_MAX = 8;

/** `GET /api/forum/mentions?q=`: the letters typed after '@'. */
export const mentionSearchSchema = z.object({
  q: z
    .string({ error: "q must be text" })
    .trim()
    .min(MENTION_QUERY_MIN, `q must be at least ${MENTION_QUERY_MIN} characters`)
    .max(50, "q must be no more than 50 characters"),
});

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * Couples the viewer may mention whose name has a word starting with the query (case ignored):
 * discoverable and not blocked either way (the one predicate of lib/locations/access.ts), never
 * the viewer's own couple. The server still validates each mention when the post is written.
 */
export async function searchMentionable(db: Db, viewerUserId: string, query: string): Promise<{ coupleId: string; name: string }[]> {
  const own = await coupleIdOf(db, viewerUserId);
  const prefix = `${escapeLike(query)}%`;
  return db
    .select({ coupleId: couples.id, name: couples.coupleName })
    .from(couples)
    .where(
      and(
        discoverableTo(viewerUserId),
        own ? ne(couples.id, own) : undefined,
        or(sql`${couples.coupleName} ilike ${prefix}`, sql`${couples.coupleName} ilike ${`% ${prefix}`}`),
      ),
    )
    .orderBy(asc(couples.coupleName))
    .limit(MENTION_SUGGESTIONS_MAX);
}
