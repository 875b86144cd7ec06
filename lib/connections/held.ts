import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { couples, heldRequests } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { holdPartnersWhere } from "@/lib/membership/partner";
import { recordModeration } from "@/lib/safety/moderation-log";
import { assertMayActOn, concernsOwnCouple, type Moderator } from "@/lib/safety/moderators";
import { HELD_NOT_DELIVERABLE, type HeldDecision } from "@/lib/safety/spam-rules";
import { assertPairMayRequest, deliverRequest } from "./service";

/**
 * A moderator decides a hello the same-note rule held (`POST /api/moderation/held/{id}/{decision}`):
 * `deliver` sends it to the asked couple as a normal request (notified, dated now, under the same
 * checks as any request: a block, a conversation or a request since makes it undeliverable, 409);
 * `drop` discards it. Either way the held row goes and the log has it; the sender is not told which.
 */
export async function decideHeldHello(db: Db, moderator: Moderator, heldId: string, decision: HeldDecision): Promise<void> {
  await transaction(db, async (tx) => {
    // Delivered, it names both couples' partners (the sender's request, the asked couple's notices):
    // their rows first, as a hello sent takes them, for a partner's deletion takes their row and then
    // drops the hellos held from them (eraseRequestNotes), and must not find this one held meanwhile.
    if (decision === "deliver") {
      await holdPartnersWhere(
        tx,
        sql`${couples.id} in (select unnest(array[${heldRequests.fromCoupleId}, ${heldRequests.toCoupleId}]) from ${heldRequests} where ${heldRequests.id} = ${heldId})`,
      );
    }
    const [hello] = await tx.select().from(heldRequests).where(eq(heldRequests.id, heldId)).for("update");
    // One held for the moderator's own couple is not theirs to read or decide (the couple asked never sees it).
    if (!hello || concernsOwnCouple(moderator, hello.toCoupleId))
      throw new AppError("NOT_FOUND", "This held hello does not exist or was already decided.");
    await assertMayActOn(tx, moderator, hello.fromCoupleId);
    await tx.delete(heldRequests).where(eq(heldRequests.id, heldId));
    if (decision === "deliver") {
      await assertPairMayRequest(tx, hello.fromCoupleId, hello.toCoupleId).catch((error: unknown) => {
        throw error instanceof AppError ? new AppError("NOT_DELIVERABLE", HELD_NOT_DELIVERABLE) : error;
      });
      const [sender] = await tx
        .select({ coupleName: couples.coupleName, partner1Id: couples.partner1Id, partner2Id: couples.partner2Id })
        .from(couples)
        .where(and(eq(couples.id, hello.fromCoupleId), eq(couples.status, "active")));
      if (!sender) throw new AppError("NOT_DELIVERABLE", HELD_NOT_DELIVERABLE);
      // The partner who wrote it, unless they have left the couple since.
      const stillPartner = hello.sentByUserId === sender.partner1Id || hello.sentByUserId === sender.partner2Id;
      await deliverRequest(
        tx,
        { coupleId: hello.fromCoupleId, coupleName: sender.coupleName, userId: stillPartner ? hello.sentByUserId : null },
        { coupleId: hello.toCoupleId, note: hello.note },
        [],
      );
    }
    await recordModeration(tx, {
      moderatorUserId: moderator.userId,
      action: decision === "deliver" ? "held_delivered" : "held_dropped",
      coupleId: hello.fromCoupleId,
      target: { type: "held_request", id: heldId },
    });
  });
}
