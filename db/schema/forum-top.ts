/**
 * Top ("reactions in the last 7 days") at scale. Counting the window's reactions per
 * request reads every reaction of the week; instead each post keeps `forum_posts.top_score`, the
 * number of reactions on it created after `decayed_until - 7 days`, and the lists read it from a
 * keyset index. A new reaction adds one and a removed one (still in the window) takes one off,
 * in its transaction; the window moves forward by subtracting only the reactions that left it
 * since the last move (lib/forum/top.ts), a short range of `forum_reactions_post_recent_idx`.
 * One row (id 1): its lock orders a move against the writes that read the window. `rebuilt_at`
 * is when every score was last counted afresh (drift repair, at most once a day per database).
 */
import { sql } from "drizzle-orm";
import { check, pgTable, smallint, timestamp } from "drizzle-orm/pg-core";

export const forumTopWindow = pgTable(
  "forum_top_window",
  {
    id: smallint("id").primaryKey().default(1),
    decayedUntil: timestamp("decayed_until", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    rebuiltAt: timestamp("rebuilt_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [check("forum_top_window_single_row_check", sql`${t.id} = 1`)],
);
