import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { coupleBlocks, couples } from "@/db/schema";
import { cursorAfter, readCursor, rowsAfter } from "@/lib/pagination/cursor";
import { keysetPage, type KeysetPage } from "@/lib/pagination/page";
import type { BlockActor } from "./blocks";
import { BLOCK_LIST_PAGE_SIZE } from "./rules";
import { discoverable } from "./visibility";

export type BlockedCouple = { coupleId: string; coupleName: string; coupleImageUrl: string | null; blockedAt: string };

/** The list's cursors are signed for the blocking couple: another couple's cursor is refused. */
const cursorContext = (coupleId: string) => `blocks:${coupleId}`;
const INVALID_CURSOR = "This page of the couples you blocked is no longer available. Please reload.";

/**
 * The couples the caller's couple blocked, latest first, a keyset page at a time (the settings
 * page's list with 'Unblock', and `GET /api/blocks`): by (created_at, blocked couple) after the
 * cursor, on couple_blocks_blocker_created_idx. By the name the couple knew, its photo only while
 * it is discoverable (lib/safety/visibility.ts), so blocking a couple that hid or was suspended
 * shows nothing of it the forum did not.
 */
export async function listBlocks(db: Db, actor: BlockActor, cursorText?: string): Promise<KeysetPage<BlockedCouple>> {
  const cursor = readCursor(cursorContext(actor.coupleId), cursorText, INVALID_CURSOR);
  const rows = await db
    .select({
      coupleId: couples.id,
      coupleName: couples.coupleName,
      coupleImageUrl: sql<string | null>`case when ${discoverable(couples)} then ${couples.profileImageUrl} end`,
      blockedAt: coupleBlocks.createdAt,
    })
    .from(coupleBlocks)
    .innerJoin(couples, eq(couples.id, coupleBlocks.blockedCoupleId))
    .where(
      and(
        eq(coupleBlocks.blockerCoupleId, actor.coupleId),
        cursor ? rowsAfter(coupleBlocks.createdAt, coupleBlocks.blockedCoupleId, cursor, "desc") : undefined,
      ),
    )
    .orderBy(desc(coupleBlocks.createdAt), desc(coupleBlocks.blockedCoupleId))
    .limit(BLOCK_LIST_PAGE_SIZE + 1);
  return keysetPage(
    rows,
    BLOCK_LIST_PAGE_SIZE,
    (row) => ({ ...row, blockedAt: row.blockedAt.toISOString() }),
    (last) => cursorAfter(cursorContext(actor.coupleId), { sortKey: last.blockedAt, id: last.coupleId }),
  );
}
