/** Many couples at once, and the dashboard's read of them, for the tests of what ranks a network (discover, the directory's 'most in common'). */
import { sql } from "drizzle-orm";
import { getDb, type Db } from "@/db/client";
import { resultRows } from "@/db/result-rows";
import { dashboardCards, readDashboardLists } from "@/lib/discover/queries";

/**
 * `count` discoverable one-partner couples whose partner holds `interests`, their ids led by
 * `prefix` (seven hex digits: the test picks their order by id), sorted.
 */
export async function bulkCouples(prefix: string, count: number, interests: string[]): Promise<string[]> {
  const db = await getDb();
  const id = (head: string) => sql`(${head} || lpad(to_hex(g), 12, '0'))::uuid`;
  await db.execute(sql`insert into users (id, email, password_hash, first_name, last_name, date_of_birth, email_verified_at, interests)
    select ${id(`${prefix}1-0000-4000-8000-`)}, ${prefix} || g || '@bulk.test', 'x', 'Bulk', 'Last', date '1990-01-01', now(),
      ${sql.param(interests)}::text[]
    from generate_series(1, ${count}) g`);
  const rows = resultRows<{ id: string }>(
    await db.execute(sql`insert into couples (id, partner1_id, couple_name, status, is_visible)
      select ${id(`${prefix}0-0000-4000-8000-`)}, ${id(`${prefix}1-0000-4000-8000-`)}, 'Bulk ' || g, 'active', true
      from generate_series(1, ${count}) g returning id`),
  );
  return rows.map((row) => row.id).sort();
}

/** The dashboard's cards of couples as it reads them: the stored lists, then the cards from them. */
export const dashboardFinds = async (db: Db, userId: string, counts: { suggestions: number; near: number }) =>
  dashboardCards(db, await readDashboardLists(db, userId, counts));
