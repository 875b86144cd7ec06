import "server-only";
import { BANNED_EMAIL } from "@/lib/safety/rules";
import { isBannedEmail } from "@/lib/safety/sanctions";
import { and, eq, isNull, ne, notExists } from "drizzle-orm";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { couples, invitations, notifications, users } from "@/db/schema";
import { issueVerificationEmail } from "@/lib/auth/email-verification";
import { hashPassword, withPasswordSlot } from "@/lib/auth/password";
import { AppError } from "@/lib/errors";
import { deleteMailAbout } from "@/lib/mail/outbox";
import { createNotification, withdrawNotifications } from "@/lib/notifications/service";
import { partnerJoined } from "@/lib/notifications/types/partner-joined";
import { LIMITS, consumeLimit } from "@/lib/rate-limit";
import { EMAIL_EXISTS_MESSAGE } from "@/lib/registration/service";
import { assertOpen, invalidInvitation, invitationByToken, tooManyAttempts, type InvitationRow } from "./lookup";
import { MESSAGES } from "./rules";
import { type AcceptInvitationInput } from "./schemas";

/**
 * Accepting is public and creates accounts, so every attempt counts against the caller's
 * address: a token cannot be brute-forced, and accounts cannot be made in bulk.
 */
export async function throttleAccept(db: Db, clientAddress: string): Promise<void> {
  const limit = await consumeLimit(db, LIMITS.invitationAcceptPerAddress, clientAddress);
  if (!limit.allowed) throw tooManyAttempts(limit);
}

/** An open invitation, read without a lock: a bad link is refused before any slow work. */
export async function openInvitation(db: Db, token: string): Promise<InvitationRow> {
  const row = await invitationByToken(db, token);
  assertOpen(row);
  return row;
}

/**
 * Inside the caller's transaction: key-shares partner A's row, locks the invitation's couple, then
 * the invitation (the order sendInvitation uses too, so the two never deadlock), and checks the
 * link again. Joins of one couple thus run one after the other: of two people accepting at once,
 * the second finds the couple full and gets COUPLE_FULL.
 */
export async function lockForJoin(tx: Db, token: string, now = new Date()): Promise<InvitationRow> {
  const peek = await invitationByToken(tx, token);
  if (!peek) throw invalidInvitation();
  // Partner A's row before the couple's: the 'joined' notice to them (a foreign key) takes it anyway,
  // and their deletion and profile save take it before the couple, so a join holding the couple
  // while it waited on them deadlocked. A partner 2 who never proved the address is locked only
  // after the couple (dropUnprovenAccount), as an invitation's send takes them.
  await tx.select({ id: users.id }).from(users).where(eq(users.id, peek.partner1Id)).for("key share");
  await tx.select({ id: couples.id }).from(couples).where(eq(couples.id, peek.coupleId)).for("update");
  const invitation = await invitationByToken(tx, token, { lock: true });
  assertOpen(invitation, now);
  return invitation;
}

/**
 * Inside the caller's transaction, after lockForJoin: makes `partner` the couple's partner 2.
 * The update is conditional (and the unique partner-2 index backs it), so even a writer that
 * skipped the lock could not add a third partner; a refusal rolls back the caller's whole
 * transaction, an account made for it included. The invitation is used up, the couple's other
 * open invitations are revoked, and partner A is notified, all in the same transaction.
 */
export async function joinCouple(
  tx: Db,
  invitation: InvitationRow,
  partner: { id: string; firstName: string },
  now = new Date(),
): Promise<{ coupleId: string }> {
  const [joined] = await tx
    .update(couples)
    .set({ partner2Id: partner.id })
    .where(and(eq(couples.id, invitation.coupleId), isNull(couples.partner2Id), ne(couples.partner1Id, partner.id)))
    .returning({ id: couples.id });
  if (!joined) throw new AppError("COUPLE_FULL", MESSAGES.joinCoupleFull);
  await tx.update(invitations).set({ acceptedAt: now }).where(eq(invitations.id, invitation.id));
  await tx
    .update(invitations)
    .set({ revokedAt: now })
    .where(and(eq(invitations.coupleId, invitation.coupleId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)));
  await createNotification(tx, {
    userId: invitation.partner1Id,
    type: "partner_joined",
    ...partnerJoined.text.notice(partner, invitation.coupleName),
    actorUserId: partner.id,
    actorCoupleId: invitation.coupleId,
  });
  return { coupleId: invitation.coupleId };
}

/**
 * SQL on `users`: an account the e-mailed link replaces (dropUnprovenAccount), so it does not stop
 * an invitation to its address either (sendInvitation): it never proved the address and started
 * no couple of its own.
 */
export const replaceableAccount = (db: Db) =>
  and(isNull(users.emailVerifiedAt), notExists(db.select({ id: couples.id }).from(couples).where(eq(couples.partner1Id, users.id))))!;

/**
 * Inside the caller's transaction, the account's row locked: removes an account that never proved
 * its address (it never signed in, so it wrote nothing else). Its sessions and tokens go with it
 * (cascade); the notices others got about what it did (partner A's that it joined) and the mail to
 * it or naming it (its verification e-mail, partner A's 'joined' e-mail) go too, as an account's
 * deletion takes them (lib/account/deletion.ts): the foreign keys would only clear the actor, and
 * the notice would stay. Other couples' invitations to its address are not its mail and stay.
 */
export async function removeUnprovenAccount(tx: Db, account: { id: string }): Promise<void> {
  await withdrawNotifications(tx, eq(notifications.actorUserId, account.id));
  await deleteMailAbout(tx, account.id);
  await tx.delete(users).where(eq(users.id, account.id));
}

/**
 * The e-mailed link proves the address, so it wins over an account there that never proved it:
 * one made through the shareable link (then the couple's partner 2, which the foreign key clears)
 * or registered on its own; it goes as a released partner 2 does (removeUnprovenAccount). An
 * account that started a couple of its own is left alone (the insert then refuses with EMAIL_EXISTS).
 */
async function dropUnprovenAccount(tx: Db, email: string): Promise<void> {
  const replaced = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), replaceableAccount(tx)))
    .for("update");
  for (const account of replaced) await removeUnprovenAccount(tx, account);
}

export type AcceptedInvitation = {
  user: { id: string; email: string; emailVerifiedAt: Date | null };
  couple: { id: string };
  /** The verification e-mail queued when the link used did not prove the address. */
  emailIds: string[];
};

/**
 * Partner B accepts: an account for the invited address, with the names partner A gave,
 * attached to the couple as partner 2, all in one transaction. The e-mailed link proves the
 * address: the account is verified and the caller signs it in. The shareable link does not (it
 * went through partner A's hands): the account must verify its e-mail like any other, and the
 * verification e-mail is queued in the same transaction.
 */
export async function acceptInvitation(
  db: Db,
  input: AcceptInvitationInput,
  context: { clientAddress: string },
): Promise<AcceptedInvitation> {
  await throttleAccept(db, context.clientAddress);
  // A bad link is refused before the slow hashing; the link is checked again under lock below.
  await openInvitation(db, input.invitationToken);
  // Hashing is slow: done before the transaction holds any lock, in a sign-in's slot (public like
  // registration, so a flood of accepts must leave libuv's threads to the rest of the API).
  const passwordHash = await withPasswordSlot(() => hashPassword(input.password));
  return transaction(db, async (tx) => {
    const now = new Date();
    const invitation = await lockForJoin(tx, input.invitationToken, now);
    if (invitation.provesAddress) await dropUnprovenAccount(tx, invitation.partnerEmail);
    if (await isBannedEmail(tx, invitation.partnerEmail)) throw new AppError("FORBIDDEN", BANNED_EMAIL);
    const [user] = await tx
      .insert(users)
      .values({
        email: invitation.partnerEmail,
        passwordHash,
        emailVerifiedAt: invitation.provesAddress ? now : null,
        firstName: invitation.partnerFirstName,
        lastName: invitation.partnerLastName,
        dateOfBirth: input.dateOfBirth,
        registrationType: "partner_invitation",
      })
      .onConflictDoNothing()
      .returning({ id: users.id, email: users.email, emailVerifiedAt: users.emailVerifiedAt });
    // The address registered on its own since the invitation was sent.
    if (!user) throw new AppError("EMAIL_EXISTS", EMAIL_EXISTS_MESSAGE);
    const partner = { id: user.id, firstName: invitation.partnerFirstName, lastName: invitation.partnerLastName };
    const { coupleId } = await joinCouple(tx, invitation, partner, now);
    const emailIds = user.emailVerifiedAt ? [] : [await issueVerificationEmail(tx, { ...partner, email: user.email })];
    return { user, couple: { id: coupleId }, emailIds };
  });
}
