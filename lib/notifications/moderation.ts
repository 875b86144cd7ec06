import "server-only";
import { and, arrayOverlaps, eq, inArray, isNotNull, or, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { emailOutbox, notifications, pushOutbox } from "@/db/schema";
import { conversationBetween } from "@/lib/connections/queries";
import { giveUpMail, WITHHELD } from "@/lib/mail/outbox";
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

/** The partners of a block's two couples, each couple's apart. */
const partnersOf = async (tx: Db, block: Block): Promise<[string[], string[]]> => [
  await couplePartners(tx, block.blockerCoupleId),
  await couplePartners(tx, block.blockedCoupleId),
];

/**
 * A block made or lifted changes what both couples' bells count and list (a blocked couple's
 * notifications are neither): each partner's bell is told, as when a notification is written.
 */
async function recountBells(tx: Db, [one, other]: [string[], string[]]): Promise<void> {
  await publishLive(
    tx,
    [...one, ...other].map((userId) => ({ userId, kind: NOTIFICATION })),
  );
}

/**
 * The notification e-mails still waiting between two couples (their partners), either way: to a
 * partner of one, naming or quoting a partner of the other, or telling of their conversation (a
 * message e-mail names the other couple even when none of the authors it quotes is left to name).
 * What a delivery would withhold between them (coupleApartAmong), with their conversation's, and
 * no more: a transactional e-mail (no type) always goes, and so does their mail with other
 * couples. Found by email_outbox_about_idx (an e-mail names its recipient too).
 */
function mailBetween(one: string[], other: string[], conversationId: string | undefined): SQL {
  const toNaming = (to: string[], named: string[]) =>
    and(
      inArray(emailOutbox.recipientId, to),
      or(arrayOverlaps(emailOutbox.aboutUserIds, named), conversationId ? eq(emailOutbox.conversationId, conversationId) : undefined),
    );
  return and(
    isNotNull(emailOutbox.notificationType),
    arrayOverlaps(emailOutbox.aboutUserIds, [...one, ...other]),
    or(toNaming(one, other), toNaming(other, one)),
  )!;
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
    // Their e-mails go now too (WITHHELD, as their delivery would say), not at a try that may
    // never come: without a provider (dev, a preview) their words would wait EMAIL_KEPT_DAYS.
    const [one, other] = await partnersOf(tx, block);
    const conversation = await conversationBetween(tx, block.blockerCoupleId, block.blockedCoupleId);
    await giveUpMail(tx, mailBetween(one, other, conversation?.id), WITHHELD);
    await recountBells(tx, [one, other]);
  },
  unblocked: async (tx, block) => recountBells(tx, await partnersOf(tx, block)),
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
