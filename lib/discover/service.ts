/**
 * Discover's writes: the stored lists a read computed afresh, and 'Not for us'. Reads are in
 * queries.ts.
 */
import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, discoverDismissals, discoverSummaries } from "@/db/schema";
import { coupleNotFound } from "@/lib/couples/queries";
import { partnerOf } from "@/lib/membership/partner";
import { isCoupleId } from "@/lib/couples/schemas";
import { AppError } from "@/lib/errors";
import { seenByOther } from "@/lib/safety/visibility";
import { DISMISS_MS } from "./rules";

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
 * is NOT_FOUND alike, so ids cannot be probed; their own couple is a VALIDATION_ERROR.
 */
export async function dismissSuggestion(
  db: Db,
  userId: string,
  coupleId: string,
  now = new Date(),
): Promise<{ coupleId: string; hiddenUntil: string }> {
  if (!isCoupleId(coupleId)) throw coupleNotFound();
  const [own] = await db.select({ id: couples.id }).from(couples).where(partnerOf(userId)).limit(1);
  if (!own) throw new AppError("NOT_FOUND", "Create your couple profile first.");
  if (own.id === coupleId) throw new AppError("VALIDATION_ERROR", "You cannot hide your own couple.");
  const [target] = await db
    .select({ id: couples.id })
    .from(couples)
    .where(and(eq(couples.id, coupleId), seenByOther({ coupleId: own.id })))
    .limit(1);
  if (!target) throw coupleNotFound();
  const hiddenUntil = new Date(now.getTime() + DISMISS_MS);
  await db
    .insert(discoverDismissals)
    .values({ coupleId: own.id, dismissedCoupleId: coupleId, hiddenUntil })
    .onConflictDoUpdate({ target: [discoverDismissals.coupleId, discoverDismissals.dismissedCoupleId], set: { hiddenUntil } });
  return { coupleId, hiddenUntil: hiddenUntil.toISOString() };
}
