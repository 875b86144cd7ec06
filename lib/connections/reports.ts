import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { connectionRequests, couples } from "@/db/schema";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import type { ReportedWords } from "@/lib/safety/reports";

/**
 * A hello as a report's target (report type `request`): the couple that said it is reported for
 * its note, and moderators read that note, which nobody but its two couples sees otherwise.
 */

/**
 * What a hello report names, as the reporter may see it: the couple that sent it, when the hello
 * was sent to the reporter's couple (answered or not; a hello goes with its couples), with its note
 * as the reporter saw it (none once erased with its sender); otherwise nothing, which reads as missing.
 */
export async function reportedRequestCouple(
  db: Db,
  reporter: ActingCouple,
  requestId: string,
): Promise<{ coupleId: string; words: ReportedWords | null; authorUserId: string | null } | null> {
  const [row] = await db
    .select({ coupleId: connectionRequests.fromCoupleId, note: connectionRequests.note, authorUserId: connectionRequests.sentByUserId })
    .from(connectionRequests)
    .where(and(eq(connectionRequests.id, requestId), eq(connectionRequests.toCoupleId, reporter.coupleId)));
  return row
    ? { coupleId: row.coupleId, words: row.note === "" ? null : { title: null, body: row.note }, authorUserId: row.authorUserId }
    : null;
}

/** A reported hello as the moderation queue shows it: its note and the couple that sent it. */
export type ReportedRequest = { id: string; note: string; coupleId: string; coupleName: string };

/** The reported hellos of open reports, in one read (primary key). */
export async function reportedRequests(db: Db, ids: readonly string[]): Promise<ReportedRequest[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: connectionRequests.id, note: connectionRequests.note, coupleId: couples.id, coupleName: couples.coupleName })
    .from(connectionRequests)
    .innerJoin(couples, eq(couples.id, connectionRequests.fromCoupleId))
    .where(inArray(connectionRequests.id, [...ids]));
}
