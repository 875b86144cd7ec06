import "server-only";
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { messages } from "@/db/schema";
import { mayHoldLink, renderBody } from "@/lib/plain-text";
import { lowTrustCouples } from "@/lib/safety/spam";
import { linksArePlain, PLAIN_LINK_FIRST_MESSAGES } from "@/lib/safety/spam-rules";

/** What of a message the rule reads (a thread's rows, lib/messages/queries.ts, carry more). */
type WrittenMessage = {
  id: string;
  conversationId: string;
  seq: number;
  body: string | null;
  deletedAt: Date | null;
  authorCoupleId: string | null;
};

/** A body that cannot hold a link (lib/plain-text.ts) is not parsed at all. */
const hasLink = (body: string) =>
  mayHoldLink(body) && renderBody(body).some((paragraph) => paragraph.some((line) => line.some((s) => s.kind === "link")));

/**
 * The messages whose links show but are not clickable (lib/safety/spam-rules.ts `linksArePlain`):
 * by a couple below trusted, among its conversation's first PLAIN_LINK_FIRST_MESSAGES. Reads
 * nothing unless a row has a link: then each conversation's first seqs (its seq index) and the
 * trust of the couples that wrote the early ones.
 */
export async function plainLinkMessages(db: Db, rows: readonly WrittenMessage[]): Promise<Set<string>> {
  const linked = rows.filter((row) => row.deletedAt === null && row.authorCoupleId !== null && row.body && hasLink(row.body));
  if (linked.length === 0) return new Set();
  const conversationIds = [...new Set(linked.map((row) => row.conversationId))];
  const firstSeqs = new Map(
    await Promise.all(
      conversationIds.map(async (id) => {
        const first = await db
          .select({ seq: messages.seq })
          .from(messages)
          .where(eq(messages.conversationId, id))
          .orderBy(asc(messages.seq))
          .limit(PLAIN_LINK_FIRST_MESSAGES);
        return [id, first.map((row) => row.seq)] as const;
      }),
    ),
  );
  /** The message's place in its conversation (1: the first); past the first ones, one more than them. */
  const placeOf = (row: WrittenMessage) => {
    const index = firstSeqs.get(row.conversationId)!.indexOf(row.seq);
    return index === -1 ? PLAIN_LINK_FIRST_MESSAGES + 1 : index + 1;
  };
  const early = linked.filter((row) => linksArePlain("limited", placeOf(row)));
  if (early.length === 0) return new Set();
  const lowTrust = await lowTrustCouples(db, [...new Set(early.map((row) => row.authorCoupleId!))]);
  return new Set(
    early.filter((row) => linksArePlain(lowTrust.has(row.authorCoupleId!) ? "limited" : "trusted", placeOf(row))).map((row) => row.id),
  );
}
