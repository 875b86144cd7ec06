import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { notifications, pushOutbox } from "@/db/schema";
import { couplePartners } from "@/lib/membership/partner";
import { publishLive } from "@/lib/live/publish";
import type { Block, SafetyReactions, Sanctioned } from "@/lib/safety/reactions";
import { suspends } from "@/lib/safety/rules";
import { NOTIFICATION } from "./live";
import { pushesBetween, pushesWithOthers } from "./push/outbox";
import { createNotifications } from "./service";
import { moderation } from "./types/moderation";

/** Both partners of the couple get the notice, in the app and by e-mail (as each chose for the type). */
async function tellCouple(tx: Db, sanction: Sanctioned, text: { title: string; message: string }): Promise<void> {
  const partners = await couplePartners(tx, sanction.coupleId);
  await createNotifications(
    tx,
    partners.map((userId) => ({ userId, type: "moderation" as const, title: text.title, message: text.message })),
  );
}

/**
 * A block made or lifted changes what both couples' bells count and list (a blocked couple's
 * notifications are neither): each partner's bell is told, as when a notification is written.
 */
async function recountBells(tx: Db, block: Block): Promise<void> {
  const partners = [...(await couplePartners(tx, block.blockerCoupleId)), ...(await couplePartners(tx, block.blockedCoupleId))];
  await publishLive(
    tx,
    partners.map((userId) => ({ userId, kind: NOTIFICATION })),
  );
}

/**
 * A suspension or ban made or lifted changes what the bells of everyone the couple notified count
 * and list (a suspended couple's notifications are neither: `own`, lib/notifications/queries.ts),
 * as a block does for the two couples: each is told (notifications_actor_couple_idx finds them).
 */
async function recountBellsNotifiedBy(tx: Db, coupleId: string): Promise<void> {
  const notified = await tx
    .selectDistinct({ userId: notifications.userId })
    .from(notifications)
    .where(eq(notifications.actorCoupleId, coupleId));
  await publishLive(
    tx,
    notified.map(({ userId }) => ({ userId, kind: NOTIFICATION })),
  );
}

/** Notifications' reactions to blocks and moderators' decisions (listed in lib/registry/safety.ts). */
export const notificationsSafety: SafetyReactions = {
  blocked: async (tx, block) => {
    await tx.delete(pushOutbox).where(pushesBetween(tx, block.blockerCoupleId, block.blockedCoupleId));
    await recountBells(tx, block);
  },
  unblocked: recountBells,
  sanctioned: async (tx, sanction) => {
    // Suspended, the couple stands with no one (standTogether): the pushes waiting between it and
    // others go now, as a block's do, not at the next send run.
    if (suspends(sanction.kind)) {
      const { fromCouple, toCouple } = pushesWithOthers(tx, sanction.coupleId);
      await tx.delete(pushOutbox).where(fromCouple);
      await tx.delete(pushOutbox).where(toCouple);
      await recountBellsNotifiedBy(tx, sanction.coupleId);
    }
    await tellCouple(tx, sanction, moderation.text.sanctioned(sanction));
  },
  lifted: async (tx, sanction) => {
    if (suspends(sanction.kind)) await recountBellsNotifiedBy(tx, sanction.coupleId);
    await tellCouple(tx, sanction, moderation.text.lifted(sanction.kind));
  },
  appealRefused: (tx, sanction) => tellCouple(tx, sanction, moderation.text.appealRefused(sanction.kind)),
};
