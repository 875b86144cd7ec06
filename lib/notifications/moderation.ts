import "server-only";
import { and, arrayOverlaps, eq, inArray, isNotNull, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { conversations, couples, emailOutbox, notifications, pushOutbox } from "@/db/schema";
import { giveUpMail, WITHHELD } from "@/lib/mail/outbox";
import { couplePartners, partnersByCouple, partnersIn } from "@/lib/membership/partner";
import { publishLive } from "@/lib/live/publish";
import type { Block, SafetyReactions, Sanctioned } from "@/lib/safety/reactions";
import { suspends } from "@/lib/safety/rules";
import { NOTIFICATION } from "./live";
import { pushesBetween, pushesOfConversations, pushesWithOthers } from "./push/outbox";
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

/** A couple, its partners, and the couples it talks with: their conversations and partners. */
type Apart = { coupleId: string; partners: string[]; conversationIds: string[]; talkedWith: string[] };

/** SQL: one of `userIds` is a partner of a couple other than `coupleId`. */
const inCoupleBesides = (coupleId: string, userIds: SQL | AnyPgColumn): SQL =>
  sql`exists (select 1 from ${couples} oc where oc.id <> ${coupleId} and (oc.partner1_id = any(${userIds}) or oc.partner2_id = any(${userIds})))`;

/**
 * The notification e-mails still waiting between a couple and `others` (the partners of one couple
 * it blocked or was blocked by; null: every other couple, as it is suspended), either way: to a
 * partner of one side, naming or quoting a partner of the other, or telling of a conversation
 * between them (a message e-mail names the other couple even when none of the authors it quotes
 * is left to name). What a delivery would withhold between them (coupleApartAmong), with their
 * conversations', and no more: a transactional e-mail (no type) always goes, and so does the mail
 * of each side with its own couple or with couples that still stand with it. Found by
 * email_outbox_about_idx (an e-mail names its recipient too).
 */
function mailApart({ coupleId, partners, conversationIds, talkedWith }: Apart, others: string[] | null): SQL {
  const about = emailOutbox.aboutUserIds;
  const ofConversation = conversationIds.length > 0 ? inArray(emailOutbox.conversationId, conversationIds) : undefined;
  const toCouple = and(
    inArray(emailOutbox.recipientId, partners),
    or(others ? arrayOverlaps(about, others) : inCoupleBesides(coupleId, about), ofConversation),
  );
  const toOthers = and(
    others ? inArray(emailOutbox.recipientId, others) : inCoupleBesides(coupleId, sql`array[${emailOutbox.recipientId}]`),
    or(arrayOverlaps(about, partners), ofConversation),
  );
  return and(
    isNotNull(emailOutbox.notificationType),
    arrayOverlaps(about, [...partners, ...(others ?? []), ...talkedWith]),
    or(toCouple, toOthers),
  )!;
}

/** A couple as mailApart takes it: its partners, its conversations (with `withCouple` alone, when given) and the partners of those it talks with. */
async function apart(tx: Db, coupleId: string, withCouple?: string): Promise<Apart> {
  const ofCouple = or(eq(conversations.coupleLowId, coupleId), eq(conversations.coupleHighId, coupleId));
  const talks = await tx
    .select({ id: conversations.id, low: conversations.coupleLowId, high: conversations.coupleHighId })
    .from(conversations)
    .where(
      withCouple ? and(ofCouple, or(eq(conversations.coupleLowId, withCouple), eq(conversations.coupleHighId, withCouple))) : ofCouple,
    );
  const otherCouples = talks.flatMap((talk) => [talk.low, talk.high].filter((id): id is string => id !== null && id !== coupleId));
  const byCouple = await partnersByCouple(tx, [coupleId, ...otherCouples]);
  return {
    coupleId,
    partners: partnersIn(byCouple, [coupleId]),
    conversationIds: talks.map((talk) => talk.id),
    talkedWith: partnersIn(byCouple, otherCouples),
  };
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
    const between = await apart(tx, block.blockerCoupleId, block.blockedCoupleId);
    await tx.delete(pushOutbox).where(pushesOfConversations(tx, [...between.partners, ...between.talkedWith], between.conversationIds));
    // Their e-mails go now too (WITHHELD, as their delivery would say), not at a try that may
    // never come: without a provider (dev, a preview) their words would wait EMAIL_KEPT_DAYS.
    const [one, other] = await partnersOf(tx, block);
    await giveUpMail(tx, mailApart(between, other), WITHHELD);
    await recountBells(tx, [one, other]);
  },
  unblocked: async (tx, block) => recountBells(tx, await partnersOf(tx, block)),
  sanctioned: async (tx, sanction) => {
    // Suspended, the couple stands with no one (standTogether): the pushes and e-mails waiting
    // between it and others go now, as a block's do, not at the next send run.
    if (suspends(sanction.kind)) {
      const { fromCouple, toCouple } = pushesWithOthers(tx, sanction.coupleId);
      await tx.delete(pushOutbox).where(fromCouple);
      await tx.delete(pushOutbox).where(toCouple);
      const withOthers = await apart(tx, sanction.coupleId);
      await tx
        .delete(pushOutbox)
        .where(pushesOfConversations(tx, [...withOthers.partners, ...withOthers.talkedWith], withOthers.conversationIds));
      await giveUpMail(tx, mailApart(withOthers, null), WITHHELD);
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
