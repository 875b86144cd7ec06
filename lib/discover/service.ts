/**
 * Discover's writes: the stored lists a read computed afresh, and 'Not for us'. Reads are in
 * queries.ts.
 */
import "server-only";
import { spendLimits } from "@/lib/rate-limit";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, discoverDismissals, discoverSummaries } from "@/db/schema";
import { coupleNotFound } from "@/lib/couples/queries";
import { canonicalId } from "@/lib/fields";
import { AppError } from "@/lib/errors";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { seenByOther } from "@/lib/safety/visibility";
import { DISMISSALS_PER_USER, DISMISS_MS } from "./rules";

/** A couple's stored lists: the suggestions' and the near couples' ids, and what and when they were computed from. */
export type SummaryLists = { candidateIds: string[]; nearIds: string[] | null; inputsKey: string; computedAt: Date };

/** Stores (or replaces) the couple's lists. */
export async function storeSummary(db: Db, coupleId: string, lists: SummaryLists): Promise<void> {
  await db
    .insert(discoverSummaries)
    .values({ coupleId, ...lists })
    .onConflictDoUpdate({ target: discoverSummaries.coupleId, set: lists });
}

/**
 * 'Not for us': hides the couple from the viewer's couple's suggestions for 30 days (again: the
 * 30 days start over). A couple the viewer may not see (hidden, blocked, unknown, malformed id)
 * is NOT_FOUND alike, so ids cannot be probed; their own couple is a VALIDATION_ERROR. Each
 * call counts against the person's DISMISSALS_PER_USER.
 */
export async function dismissSuggestion(
  db: Db,
  { coupleId: own, userId }: Pick<ActingCouple, "coupleId" | "userId">,
  id: string,
  now = new Date(),
): Promise<{ coupleId: string; hiddenUntil: string }> {
  await spendLimits(db, [[DISMISSALS_PER_USER, userId]]);
  const coupleId = canonicalId(id);
  if (!coupleId) throw coupleNotFound();
  if (own === coupleId) throw new AppError("VALIDATION_ERROR", "You cannot hide your own couple.");
  const [target] = await db
    .select({ id: couples.id })
    .from(couples)
    .where(and(eq(couples.id, coupleId), seenByOther({ coupleId: own })))
    .limit(1);
  if (!target) throw coupleNotFound();
  // A later date stands: 'Not for us' again never shortens a hiding, nor the 'for good' of `keepApart`.
  const [row] = await db
    .insert(discoverDismissals)
    .values({ coupleId: own, dismissedCoupleId: coupleId, hiddenUntil: new Date(now.getTime() + DISMISS_MS) })
    .onConflictDoUpdate({
      target: [discoverDismissals.coupleId, discoverDismissals.dismissedCoupleId],
      set: { hiddenUntil: sql`greatest(${discoverDismissals.hiddenUntil}, excluded.hidden_until)` },
    })
    .returning({ hiddenUntil: discoverDismissals.hiddenUntil });
  return { coupleId, hiddenUntil: row!.hiddenUntil.toISOString() };
}

/** Far enough to mean never: the column is a timestamp, and a date a reader can parse. */
export const APART_UNTIL = new Date("9999-12-31T00:00:00Z");

/**
 * Keeps two couples out of each other's suggestions for good, both ways (both partners of one said
 * 'Not for us' after meeting the other: lib/plans/feedback.ts), in the caller's transaction.
 */
export async function keepApart(db: Db, one: string, other: string): Promise<void> {
  await db
    .insert(discoverDismissals)
    .values([
      { coupleId: one, dismissedCoupleId: other, hiddenUntil: APART_UNTIL },
      { coupleId: other, dismissedCoupleId: one, hiddenUntil: APART_UNTIL },
    ])
    .onConflictDoUpdate({ target: [discoverDismissals.coupleId, discoverDismissals.dismissedCoupleId], set: { hiddenUntil: APART_UNTIL } });
}
