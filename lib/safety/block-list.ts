import "server-only";
import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { coupleBlocks, couples } from "@/db/schema";
import type { BlockActor } from "./blocks";
import { discoverable } from "./visibility";

export type BlockedCouple = { coupleId: string; coupleName: string; coupleImageUrl: string | null; blockedAt: string };

/**
 * The couples the caller's couple blocked, latest first (the settings page's list with 'Unblock'):
 * by the name the couple knew, its photo only while it is discoverable (lib/safety/visibility.ts),
 * so blocking a couple that hid or was suspended shows nothing of it the forum did not.
 */
export async function listBlocks(db: Db, actor: BlockActor): Promise<BlockedCouple[]> {
  const rows = await db
    .select({
      coupleId: couples.id,
      coupleName: couples.coupleName,
      coupleImageUrl: sql<string | null>`case when ${discoverable(couples)} then ${couples.profileImageUrl} end`,
      blockedAt: coupleBlocks.createdAt,
    })
    .from(coupleBlocks)
    .innerJoin(couples, eq(couples.id, coupleBlocks.blockedCoupleId))
    .where(eq(coupleBlocks.blockerCoupleId, actor.coupleId))
    .orderBy(desc(coupleBlocks.createdAt));
  return rows.map((row) => ({ ...row, blockedAt: row.blockedAt.toISOString() }));
}
