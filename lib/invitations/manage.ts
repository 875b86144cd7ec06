import "server-only";
import { and, desc, eq, exists, isNotNull, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { couples, invitations, users } from "@/db/schema";
import { lockCoupleOf, partnerOf } from "@/lib/membership/partner";
import { AppError } from "@/lib/errors";
import { deleteInvitationMail } from "@/lib/mail/outbox";
import { partnerColumns } from "@/lib/users/projections";
import { MESSAGES } from "./rules";
import { isFull, openOf, partner2, partner2Unproven, releaseUnprovenPartner, sendInvitation, type ResentInvitation } from "./send";

/** What the settings' 'Partner' section shows: the partner, the invitation waiting for them, or neither. */
export type PartnerView =
  | { kind: "partner"; partner: { firstName: string; lastName: string; occupation: string | null; avatarUrl: string | null } }
  | {
      kind: "invited";
      invitation: { partnerEmail: string; partnerFirstName: string; partnerLastName: string; expiresAt: string; expired: boolean };
    }
  | { kind: "none"; canInvite: boolean };

export const noOpenInvitation = () => new AppError("NOT_FOUND", "There is no pending invitation.");

/** The caller's couple, locked for the caller's transaction when asked. */
async function ownCouple(db: Db, userId: string, lock = false) {
  if (lock) await lockCoupleOf(db, userId);
  const query = db
    .select({ id: couples.id, partner1Id: couples.partner1Id, partner2Id: couples.partner2Id, partner2Unproven })
    .from(couples)
    .leftJoin(partner2, eq(partner2.id, couples.partner2Id))
    .where(partnerOf(userId))
    .limit(1);
  const [couple] = lock ? await query.for("update", { of: couples }) : await query;
  if (!couple) throw new AppError("NO_COUPLE", MESSAGES.noCouple);
  return couple;
}

/**
 * The invitations partner A still waits on, with `couples` and `partner2` joined: with no partner 2,
 * the ones neither used nor cancelled (expired ones too: they can be resent); with an unproven
 * partner 2 (partner2Unproven), the one they used, whose e-mailed link still lets the real
 * partner B in (lookup.ts claimedThroughShareLink).
 */
export const waitingOf = and(
  eq(invitations.coupleId, couples.id),
  isNull(invitations.revokedAt),
  or(and(isNull(couples.partner2Id), isNull(invitations.acceptedAt)), and(partner2Unproven, eq(invitations.partnerEmail, partner2.email))),
);

/** The couple's newest invitation partner A still waits on (an expired one too: it can be resent). */
async function latestOpen(db: Db, coupleId: string) {
  const [row] = await db
    .select({
      partnerEmail: invitations.partnerEmail,
      partnerFirstName: invitations.partnerFirstName,
      partnerLastName: invitations.partnerLastName,
      expiresAt: invitations.expiresAt,
    })
    .from(invitations)
    .innerJoin(couples, eq(couples.id, invitations.coupleId))
    .leftJoin(partner2, eq(partner2.id, couples.partner2Id))
    .where(and(eq(couples.id, coupleId), waitingOf))
    .orderBy(desc(invitations.createdAt))
    .limit(1);
  return row ?? null;
}

/** The partner as a partner may see them (lib/users/projections: never their e-mail), else the open invitation. */
export async function partnerView(db: Db, userId: string, now = new Date()): Promise<PartnerView> {
  const couple = await ownCouple(db, userId);
  // An unproven partner 2 is still an invitation to partner A.
  const otherId = couple.partner1Id === userId ? (isFull(couple) ? couple.partner2Id : null) : couple.partner1Id;
  if (otherId) {
    const [other] = await db.select(partnerColumns(users)).from(users).where(eq(users.id, otherId));
    if (other)
      return {
        kind: "partner",
        partner: {
          firstName: other.firstName ?? "",
          lastName: other.lastName ?? "",
          occupation: other.occupation,
          avatarUrl: other.avatarUrl,
        },
      };
  }
  const isInviter = couple.partner1Id === userId;
  const open = isInviter ? await latestOpen(db, couple.id) : null;
  if (!open) return { kind: "none", canInvite: isInviter && !isFull(couple) };
  return {
    kind: "invited",
    invitation: { ...open, expiresAt: open.expiresAt.toISOString(), expired: open.expiresAt.getTime() <= now.getTime() },
  };
}

/** The invitation partner A is waiting on, as the dashboard shows it to them (the invitee's address is theirs to see). */
export type PendingInvitation = { id: string; partnerFirstName: string; partnerEmail: string; expiresAt: string; expired: boolean };

/** The columns of an open invitation the dashboard reads (lib/dashboard joins them to its overview). */
export const pendingColumns = {
  id: invitations.id,
  partnerFirstName: invitations.partnerFirstName,
  partnerEmail: invitations.partnerEmail,
  expiresAt: invitations.expiresAt,
};

/** An open invitation as the dashboard shows it: expired once its date has passed. */
export function pendingInvitation(
  row: { id: string; partnerFirstName: string; partnerEmail: string; expiresAt: Date },
  now = new Date(),
): PendingInvitation {
  return { ...row, expiresAt: row.expiresAt.toISOString(), expired: row.expiresAt.getTime() <= now.getTime() };
}

/** Only partner A of a couple still waiting for partner B (or for an unproven partner 2 to prove the address) manages its invitation. */
function assertInviter(couple: { partner1Id: string; partner2Id: string | null; partner2Unproven: boolean }, userId: string) {
  if (isFull(couple)) throw new AppError("COUPLE_FULL", MESSAGES.coupleFull);
  if (couple.partner1Id !== userId) throw new AppError("FORBIDDEN", MESSAGES.notInviter);
}

/**
 * 'Cancel': every open invitation of the caller's couple stops working at once (both its links),
 * and an unproven partner 2 is removed (releaseUnprovenPartner), so the invitation they used no
 * longer lets anyone in either.
 */
export async function cancelInvitation(db: Db, userId: string, now = new Date()): Promise<void> {
  await transaction(db, async (tx) => {
    const couple = await ownCouple(tx, userId, true);
    assertInviter(couple, userId);
    const revoked = await tx.update(invitations).set({ revokedAt: now }).where(openOf(couple.id)).returning({ id: invitations.id });
    if (couple.partner2Id) {
      if (!(await releaseUnprovenPartner(tx, { id: couple.id, partner2Id: couple.partner2Id }, now)))
        throw new AppError("COUPLE_FULL", MESSAGES.coupleFull);
    } else if (revoked.length === 0) throw noOpenInvitation();
  });
}

/**
 * A new password (a reset or a change, lib/auth/password-reset.ts endLinksOfOldPassword), in its
 * transaction: partner A's pending invitation ends as on 'Cancel' (both its links), and so does an
 * unproven partner 2 (releaseUnprovenPartner). Whoever knew the old password could have invited
 * their own address, and joined through either link, or as that partner 2 proving it, once the
 * owner took the account back. Nothing for a couple that has its two partners, or anyone else.
 */
export async function endInvitationsOfOldPassword(tx: Db, userId: string, now: Date): Promise<void> {
  await lockCoupleOf(tx, userId);
  const [couple] = await tx
    .select({ id: couples.id, partner2Id: couples.partner2Id, partner2Unproven })
    .from(couples)
    .leftJoin(partner2, eq(partner2.id, couples.partner2Id))
    .where(eq(couples.partner1Id, userId))
    .for("update", { of: couples });
  if (!couple || isFull(couple)) return;
  await tx.update(invitations).set({ revokedAt: now }).where(openOf(couple.id));
  if (couple.partner2Id) await releaseUnprovenPartner(tx, { id: couple.id, partner2Id: couple.partner2Id }, now);
}

/**
 * Deleting an account: the invitations of the person's couple that named them (the address and
 * names partner A typed) go, in its transaction: the accepted ones (a partner B leaves a couple
 * only with their account, so each named them or a partner B deleted before), any to their
 * address, and any to another address under the names typed in an accepted one (an earlier or
 * mistyped address); with them, their e-mails still in the outbox. Those columns are NOT NULL and
 * nothing references an invitation, so the row goes rather than a blanked one. An invitation to
 * someone else stays partner A's. The ones a partner A sent go with their user row (inviter_id cascades).
 */
export async function forgetInvitee(tx: Db, coupleId: string, email: string): Promise<void> {
  const accepted = alias(invitations, "accepted");
  const namedAlike = tx
    .select({ one: sql`1` })
    .from(accepted)
    .where(
      and(
        eq(accepted.coupleId, coupleId),
        isNotNull(accepted.acceptedAt),
        sql`lower(${accepted.partnerFirstName}) = lower(${invitations.partnerFirstName})`,
        sql`lower(${accepted.partnerLastName}) = lower(${invitations.partnerLastName})`,
      ),
    );
  const forgotten = await tx
    .delete(invitations)
    .where(
      and(
        eq(invitations.coupleId, coupleId),
        or(isNotNull(invitations.acceptedAt), eq(invitations.partnerEmail, email), exists(namedAlike)),
      ),
    )
    .returning({ inviterId: invitations.inviterId, address: invitations.partnerEmail });
  for (const inviterId of new Set(forgotten.map((row) => row.inviterId)))
    await deleteInvitationMail(
      tx,
      inviterId,
      forgotten.filter((row) => row.inviterId === inviterId).map((row) => row.address),
    );
}

/**
 * 'Resend': a new invitation to the same person, by sendInvitation (its limits, its e-mail); the
 * old one's links stop working in the same transaction, and an unproven partner 2 is replaced by
 * it. One sent again within SENT_AGAIN_SECONDS of the last send to that address (a double click,
 * two tabs) answers the invitation already sent: one e-mail, whose link keeps working. Its answer
 * is the invitation without a shareable link (ResentInvitation), the same either way.
 */
export async function resendInvitation(db: Db, userId: string, now = new Date()): Promise<ResentInvitation> {
  const couple = await ownCouple(db, userId);
  assertInviter(couple, userId);
  const open = await latestOpen(db, couple.id);
  if (!open) throw noOpenInvitation();
  const { invitation, emailIds } = await sendInvitation(
    db,
    userId,
    { partner_email: open.partnerEmail, partner_first_name: open.partnerFirstName, partner_last_name: open.partnerLastName },
    now,
    { replaceOpen: true },
  );
  const { partner_email, partner_first_name, partner_last_name, expires_at } = invitation;
  return { invitation: { partner_email, partner_first_name, partner_last_name, expires_at }, emailIds };
}
