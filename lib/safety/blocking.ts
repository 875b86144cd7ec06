import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { coupleBlocks } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { holdPartnersOfPair } from "@/lib/membership/partner";
import { spendLimits } from "@/lib/rate-limit";
import { BLOCK_MESSAGES, lockCouplePair, type BlockActor } from "./blocks";
import { announceBlock, type SafetyReactions } from "./reactions";
import { BLOCKS_PER_USER } from "./rules";
import { knownTo } from "./visibility";

/**
 * Blocks a couple; blocking again changes nothing (idempotent). A couple the caller's couple does
 * not know (lib/safety/visibility.ts `knownTo`: hidden from it, suspended, or blocking it) is 404
 * as a missing one is, so a block never tells whether a hidden couple exists; one whose words it
 * reads (a post, a conversation, a hello) may be blocked though hidden from the directory. The
 * features react in the block's transaction (`reactions`, lib/registry/safety.ts: the two couples'
 * conversation ends with it). Each block and unblock counts against the person's BLOCKS_PER_USER.
 * The two couples' people are held first, as a hello sent takes them (lib/connections/service.ts):
 * the reactions withdraw what is theirs (plans, reminders, pushes) and tell their bells, and an
 * account's deletion holds the person, then deletes what is theirs, so a block waits for it before
 * holding any of it, never holding it while it waits on the person.
 */
export async function blockCouple(db: Db, actor: BlockActor, coupleId: string, reactions: readonly SafetyReactions[]): Promise<void> {
  if (coupleId === actor.coupleId) throw new AppError("VALIDATION_ERROR", BLOCK_MESSAGES.self);
  if (!(await knownTo(db, actor.coupleId, coupleId, reactions))) throw new AppError("NOT_FOUND", BLOCK_MESSAGES.notFound);
  await spendLimits(db, [[BLOCKS_PER_USER, actor.userId]]);
  await transaction(db, async (tx) => {
    await holdPartnersOfPair(tx, actor.coupleId, coupleId);
    await lockCouplePair(tx, actor.coupleId, coupleId);
    await tx
      .insert(coupleBlocks)
      .values({ blockerCoupleId: actor.coupleId, blockedCoupleId: coupleId, createdByUserId: actor.userId })
      .onConflictDoNothing();
    await announceBlock(tx, reactions, { blockerCoupleId: actor.coupleId, blockedCoupleId: coupleId });
  });
}

/**
 * Lifts the caller's couple's block; a block the other couple made stays (it is theirs). Any id
 * answers alike (nothing to lift is no error), so lifting tells nothing of a couple either. The
 * features react as to a block, the two couples' people held first as for a block; it counts
 * against BLOCKS_PER_USER as a block does.
 */
export async function unblockCouple(db: Db, actor: BlockActor, coupleId: string, reactions: readonly SafetyReactions[]): Promise<void> {
  await spendLimits(db, [[BLOCKS_PER_USER, actor.userId]]);
  await transaction(db, async (tx) => {
    await holdPartnersOfPair(tx, actor.coupleId, coupleId);
    await lockCouplePair(tx, actor.coupleId, coupleId);
    const lifted = await tx
      .delete(coupleBlocks)
      .where(and(eq(coupleBlocks.blockerCoupleId, actor.coupleId), eq(coupleBlocks.blockedCoupleId, coupleId)))
      .returning({ id: coupleBlocks.blockedCoupleId });
    if (lifted.length > 0) await announceBlock(tx, reactions, { blockerCoupleId: actor.coupleId, blockedCoupleId: coupleId }, true);
  });
}
