import "server-only";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, invitations } from "@/db/schema";
import { partnerOf } from "@/lib/couples/partner";
import { AppError } from "@/lib/errors";
import { sendInvitation, type SentInvitation } from "./send";

/** The invitation partner A is waiting on, as the dashboard shows it to them (the invitee's address is theirs to see). */
export type PendingInvitation = { id: string; partnerFirstName: string; partnerEmail: string; expiresAt: string; expired: boolean };

const noPending = () => new AppError("NOT_FOUND", "There is no pending invitation to change.");

/** The couple's latest open invitation (not accepted, not cancelled), expired or not; null when none. */
export async function pendingInvitation(db: Db, userId: string, now = new Date()): Promise<PendingInvitation | null> {
  const [row] = await db
    .select({ id: invitations.id, partnerFirstName: invitations.partnerFirstName, partnerEmail: invitations.partnerEmail, expiresAt: invitations.expiresAt })
    .from(invitations)
    .innerJoin(couples, eq(couples.id, invitations.coupleId))
    .where(and(partnerOf(userId), isNull(couples.partner2Id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
    .orderBy(desc(invitations.createdAt))
    .limit(1);
  if (!row) return null;
  return { ...row, expiresAt: row.expiresAt.toISOString(), expired: row.expiresAt.getTime() <= now.getTime() };
}

async function openRow(tx: Db, userId: string) {
  const [row] = await tx
    .select({ id: invitations.id, partnerEmail: invitations.partnerEmail, partnerFirstName: invitations.partnerFirstName, partnerLastName: invitations.partnerLastName })
    .from(invitations)
    .innerJoin(couples, eq(couples.id, invitations.coupleId))
    .where(and(eq(couples.partner1Id, userId), isNull(couples.partner2Id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
    .orderBy(desc(invitations.createdAt))
    .limit(1)
    .for("update", { of: invitations });
  return row;
}

/** 'Cancel Invitation': partner A revokes the open invitation; its links stop working. */
export async function cancelInvitation(db: Db, userId: string, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const open = await openRow(tx, userId);
    if (!open) throw noPending();
    await tx.update(invitations).set({ revokedAt: now }).where(eq(invitations.id, open.id));
  });
}

/**
 * 'Resend Invitation': the open invitation is revoked and a fresh one (new links, 7 more days)
 * goes to the same person, through sendInvitation (its hourly limit included), in one transaction.
 */
export async function resendInvitation(db: Db, userId: string, now = new Date()): Promise<SentInvitation> {
  return db.transaction(async (tx) => {
    const open = await openRow(tx, userId);
    if (!open) throw noPending();
    await tx.update(invitations).set({ revokedAt: now }).where(eq(invitations.id, open.id));
    return sendInvitation(tx, userId, { partner_email: open.partnerEmail, partner_first_name: open.partnerFirstName, partner_last_name: open.partnerLastName }, now);
  });
}
