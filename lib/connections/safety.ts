import "server-only";
import { sql } from "drizzle-orm";
import type { SafetyReactions } from "@/lib/safety/reactions";
import { standTogether } from "@/lib/safety/visibility";
import { conversationBetween, latestRequestBetween } from "./queries";

/** Connections' reactions to safety (listed in lib/registry/safety.ts). */
export const connectionsSafety: SafetyReactions = {
  /**
   * The two couples' conversation, open or ended, shows each the other, and so does a hello between
   * them while they stand together (the requests list): a couple hidden from the directory still
   * talks with those it met.
   */
  shows: async (tx, lookerCoupleId, coupleId) => {
    if (await conversationBetween(tx, lookerCoupleId, coupleId)) return true;
    if (!(await latestRequestBetween(tx, lookerCoupleId, coupleId))) return false;
    const [row] = await tx.select({ together: sql<boolean>`${standTogether(lookerCoupleId, coupleId)}` }).from(sql`(select 1) as one`);
    return row?.together === true;
  },
};
