import { asc, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { interests } from "@/db/schema";
import { INTEREST_ROWS, groupByCategory, type InterestItem, type InterestsByCategory } from "./catalogue";

/**
 * Every interest in display order. The table is the source once seeded; while it is empty
 * (a fresh database that was migrated but not seeded) the built-in catalogue answers, so
 * onboarding never shows an empty picker.
 */
export async function listInterests(db: Db): Promise<InterestItem[]> {
  const rows = await db
    .select({ value: interests.value, label: interests.label, category: interests.category })
    .from(interests)
    .orderBy(asc(interests.sortOrder), asc(interests.value));
  if (rows.length > 0) return rows;
  return INTEREST_ROWS.map(({ value, label, category }) => ({ value, label, category }));
}

/** The same list grouped by category, categories in the order of their first interest. */
export async function interestsByCategory(db: Db): Promise<InterestsByCategory> {
  return groupByCategory(await listInterests(db));
}

/**
 * Writes the catalogue into the table: inserts what is missing and resets label, category and
 * order of what exists, so running it twice changes nothing. Called by the seed, never per
 * request (a GET must not write). Returns the number of catalogue rows.
 */
export async function ensureInterestCatalogue(db: Db): Promise<number> {
  await db
    .insert(interests)
    .values([...INTEREST_ROWS])
    .onConflictDoUpdate({
      target: interests.value,
      set: { label: sql`excluded.label`, category: sql`excluded.category`, sortOrder: sql`excluded.sort_order` },
    });
  return INTEREST_ROWS.length;
}
