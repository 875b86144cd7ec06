import "server-only";
import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, discoverDismissals } from "@/db/schema";
import { seenByOther } from "@/lib/safety/visibility";
import { APART_UNTIL } from "./service";

/**
 * The couple's 'Not for us' on discover, for a partner's data export: which couple and when. The
 * other couple's name only while the couple may still see it (lib/safety/visibility.ts: one
 * hidden since, or blocked either way, is not named); nothing else of it. Couples kept apart after
 * meeting (`keepApart`) are left out: that row may stand for the other couple's 'Not for us',
 * which is theirs (one's own is the plans' feedback). Read by the dismissals' primary key.
 */
export function dismissalsForExport(db: Db, coupleId: string) {
  return db
    .select({
      coupleId: discoverDismissals.dismissedCoupleId,
      coupleName: sql<string | null>`case when ${seenByOther({ coupleId })} then ${couples.coupleName} end`,
      firstDismissedAt: discoverDismissals.createdAt,
      hiddenUntil: discoverDismissals.hiddenUntil,
    })
    .from(discoverDismissals)
    .innerJoin(couples, eq(couples.id, discoverDismissals.dismissedCoupleId))
    .where(and(eq(discoverDismissals.coupleId, coupleId), ne(discoverDismissals.hiddenUntil, APART_UNTIL)))
    .orderBy(desc(discoverDismissals.createdAt));
}
