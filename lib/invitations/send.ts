import "server-only";
import { and, eq, isNotNull, isNull, not, type Column } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { sentJustNow, transaction } from "@/db/transaction";
import { couples, invitations, users } from "@/db/schema";
import { lockCoupleOf, partnerOf, unprovenPartner } from "@/lib/membership/partner";
import { selectUnprovenPartner } from "@/lib/auth/email-verification";
import { hashToken, newSecretToken } from "@/lib/auth/secrets";
import { AppError, userNotFound } from "@/lib/errors";
import { enqueueEmail } from "@/lib/mail/outbox";
import { invitationEmail } from "@/lib/mail/templates";
import { LIMITS, consumeLimit, limitError } from "@/lib/rate-limit";
import { BANNED_EMAIL } from "@/lib/safety/rules";
import { isBannedEmail } from "@/lib/safety/sanctions";
import { removeUnprovenAccount, replaceableAccount } from "./join";
import { expiryFrom, INVITATION_VALID_DAYS, isSelfInvitation, MESSAGES } from "./rules";
import { type InvitePartnerInput } from "./schemas";

export type SentInvitation = {
  invitation: {
    invitation_token: string;
    partner_email: string;
    partner_first_name: string;
    partner_last_name: string;
    expires_at: string;
  };
  emailIds: string[];
};

/**
 * What 'Resend' answers: the invitation waiting for partner B, without a shareable link (one sent
 * again answers the invitation just sent, whose shareable secret is not stored); `emailIds` the
 * e-mail it sent, none when it answered the one just sent.
 */
export type ResentInvitation = { invitation: Omit<SentInvitation["invitation"], "invitation_token">; emailIds: string[] };

const selfInvitation = () =>
  new AppError("VALIDATION_ERROR", MESSAGES.selfInvitation, { fieldErrors: { partner_email: MESSAGES.selfInvitation } });

/** The couple's invitations neither used nor cancelled (expired ones too: they can be resent). */
export const openOf = (coupleId: string | Column) =>
  and(eq(invitations.coupleId, coupleId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt));

/** The couple's partner 2, left-joined on `eq(partner2.id, couples.partner2Id)`. */
export const partner2 = alias(users, "partner2");

/**
 * Selected with `partner2` joined: partner 2 joined through the shareable link and never proved the
 * address (unprovenPartner), so nobody may ever verify it (a mistyped address, say). Such a partner
 * does not fill the couple for partner A: 'Cancel' removes them and a new invitation replaces them
 * (releaseUnprovenPartner), or the slot would stay locked once the e-mailed link expired.
 */
export const partner2Unproven = selectUnprovenPartner(partner2);

/** The couple has its two partners: a partner 2 who proved the address. */
export const isFull = (couple: { partner2Id: string | null; partner2Unproven: boolean }): boolean =>
  couple.partner2Id !== null && !couple.partner2Unproven;

/**
 * Inside the caller's transaction, with the couple locked: removes its unproven partner 2, as
 * dropUnprovenAccount (join.ts) does for partner B's e-mailed link. Its sessions and tokens go with
 * it (cascade) and the foreign key clears the couple's partner2Id; such an account never signed in
 * (sign-in needs a verified address), so it wrote nothing else. Its row, locked first, waits for a
 * verification under way: a partner 2 who proved the address meanwhile stays, and fills the couple
 * (the answer is then false). Partner A's notice that they joined goes with them, and so does the
 * mail to them or naming them (removeUnprovenAccount, as the e-mailed link's replacement does).
 * The invitation they used is revoked with them: its e-mailed link let the real partner B in only
 * while they held the place (lookup.ts claimedThroughShareLink), and would work again, until it
 * expired, once the address claims a newer invitation.
 */
export async function releaseUnprovenPartner(tx: Db, couple: { id: string; partner2Id: string }, now = new Date()): Promise<boolean> {
  const [unproven] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, couple.partner2Id), unprovenPartner(users)))
    .for("update");
  if (!unproven) return false;
  await removeUnprovenAccount(tx, unproven);
  await tx
    .update(invitations)
    .set({ revokedAt: now })
    .where(and(eq(invitations.coupleId, couple.id), isNotNull(invitations.acceptedAt), isNull(invitations.revokedAt)));
  return true;
}

/**
 * Partner A invites partner B: two fresh 256-bit secrets (only their digests are stored), valid
 * 7 days, and the e-mail, written together. The e-mailed secret proves the invited address; the
 * shareable one, which partner A is shown (`invitation_token`), opens the same invitation but
 * proves nothing about the address, so partner A cannot use it to fake a verified partner. The couple row is locked for the check-and-write, so a
 * concurrent join or invitation cannot slip between them; the partial unique index backs it up.
 * Every earlier open invitation of the couple is revoked in the same transaction, so the couple
 * has at most one; a live one to the same address is refused instead (with `replaceOpen`, the
 * settings' 'Resend', it is replaced too, unless sent within SENT_AGAIN_SECONDS: a resend sent
 * again answers that invitation, with no second e-mail, so the link just e-mailed keeps working).
 * A partner 2 who never proved the address (partner2Unproven) is replaced as well.
 *
 * Every attempt counts against the hourly limit before anything is checked, refused ones too (it
 * commits on its own, whatever the send's transaction does): the answers (EMAIL_EXISTS, ...)
 * would otherwise tell an inviter, without limit, which addresses have accounts. Counting and
 * checking are one step, so parallel sends cannot exceed the limit either.
 */
export async function sendInvitation(
  db: Db,
  inviterId: string,
  input: InvitePartnerInput,
  now?: Date,
  options?: { replaceOpen?: false },
): Promise<SentInvitation>;
export async function sendInvitation(
  db: Db,
  inviterId: string,
  input: InvitePartnerInput,
  now: Date,
  options: { replaceOpen: true },
): Promise<SentInvitation | ResentInvitation>;
export async function sendInvitation(
  db: Db,
  inviterId: string,
  input: InvitePartnerInput,
  now = new Date(),
  { replaceOpen = false } = {},
): Promise<SentInvitation | ResentInvitation> {
  const sendLimit = await consumeLimit(db, LIMITS.invitationsPerInviter, inviterId);
  if (!sendLimit.allowed) throw limitError(LIMITS.invitationsPerInviter, sendLimit.retryAfterSeconds);
  const emailedToken = newSecretToken();
  const shareToken = newSecretToken();
  return transaction(db, async (tx) => {
    // The inviter's row before their couple's, key-share (what the invitation's foreign key takes
    // anyway): the order a profile save naming an image and an account's deletion take them
    // (lib/images/lifecycle.ts assertOwnImageUrlsUntilCommit), so the send never holds the couple
    // while it waits on the person.
    const [inviter] = await tx
      .select({ email: users.email, firstName: users.firstName })
      .from(users)
      .where(eq(users.id, inviterId))
      .for("key share");
    if (!inviter) throw userNotFound();
    if (isSelfInvitation(inviter.email, input.partner_email)) throw selfInvitation();

    await lockCoupleOf(tx, inviterId);
    const [couple] = await tx
      .select({
        id: couples.id,
        partner1Id: couples.partner1Id,
        partner2Id: couples.partner2Id,
        partner2Unproven,
        coupleName: couples.coupleName,
      })
      .from(couples)
      .leftJoin(partner2, eq(partner2.id, couples.partner2Id))
      .where(partnerOf(inviterId))
      .for("update", { of: couples });
    if (!couple) throw new AppError("NO_COUPLE", MESSAGES.noCouple);
    if (isFull(couple)) throw new AppError("COUPLE_FULL", MESSAGES.coupleFull);
    if (couple.partner1Id !== inviterId) throw new AppError("FORBIDDEN", MESSAGES.notInviter);
    // The new invitation takes the place of a partner 2 who never proved the address.
    if (couple.partner2Id && !(await releaseUnprovenPartner(tx, { id: couple.id, partner2Id: couple.partner2Id }, now)))
      throw new AppError("COUPLE_FULL", MESSAGES.coupleFull);

    // An account that never proved the address and started no couple does not stop the invitation:
    // its e-mailed link replaces that account (replaceableAccount), as anyone may register any address.
    const [account] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, input.partner_email), not(replaceableAccount(tx))));
    if (account) throw new AppError("EMAIL_EXISTS", MESSAGES.emailExists);
    // A banned couple's partner does not come back through an invitation: accepting it is refused
    // (join.ts), so it is not sent either, with the same words (after the limit, as EMAIL_EXISTS).
    if (await isBannedEmail(tx, input.partner_email)) throw new AppError("FORBIDDEN", BANNED_EMAIL);

    const open = await tx
      .select({
        partnerEmail: invitations.partnerEmail,
        partnerFirstName: invitations.partnerFirstName,
        partnerLastName: invitations.partnerLastName,
        expiresAt: invitations.expiresAt,
        justSent: sentJustNow(invitations.createdAt).mapWith(Boolean),
      })
      .from(invitations)
      .where(openOf(couple.id));
    const live = (row: (typeof open)[number]) => row.partnerEmail === input.partner_email && row.expiresAt.getTime() > now.getTime();
    // 'Resend' sent again (SENT_AGAIN_SECONDS, under the couple's row lock): the invitation just sent
    // is the answer, its e-mailed link still working, rather than a second e-mail that revokes it.
    const justSent = replaceOpen ? open.find((row) => live(row) && row.justSent) : undefined;
    if (justSent)
      return {
        invitation: {
          partner_email: justSent.partnerEmail,
          partner_first_name: justSent.partnerFirstName,
          partner_last_name: justSent.partnerLastName,
          expires_at: justSent.expiresAt.toISOString(),
        },
        emailIds: [],
      };
    // 'Resend' (replaceOpen) replaces a live invitation to the same address too: its links stop working.
    if (!replaceOpen && open.some(live)) throw new AppError("INVITATION_ALREADY_SENT", MESSAGES.alreadySent);
    // A couple waits on one invitation at a time, the one partner A is shown: an earlier one (to a
    // mistyped address, say) stops working rather than stay usable and out of sight.
    await tx.update(invitations).set({ revokedAt: now }).where(openOf(couple.id));

    const expiresAt = expiryFrom(now);
    const [created] = await tx
      .insert(invitations)
      .values({
        coupleId: couple.id,
        inviterId,
        partnerEmail: input.partner_email,
        partnerFirstName: input.partner_first_name,
        partnerLastName: input.partner_last_name,
        tokenHash: hashToken(emailedToken),
        shareTokenHash: hashToken(shareToken),
        expiresAt,
      })
      .onConflictDoNothing()
      .returning({ id: invitations.id });
    if (!created) throw new AppError("INVITATION_ALREADY_SENT", MESSAGES.alreadySent);

    const emailId = await enqueueEmail(tx, {
      ...invitationEmail(
        input.partner_email,
        {
          partnerFirstName: input.partner_first_name,
          inviterFirstName: inviter.firstName,
          coupleName: couple.coupleName,
          validDays: INVITATION_VALID_DAYS,
        },
        emailedToken,
      ),
      // Its address has no account yet: the invitation is the inviter's to take with them.
      recipientId: null,
      about: [inviterId],
    });
    return {
      invitation: {
        invitation_token: shareToken,
        partner_email: input.partner_email,
        partner_first_name: input.partner_first_name,
        partner_last_name: input.partner_last_name,
        expires_at: expiresAt.toISOString(),
      },
      emailIds: [emailId],
    };
  });
}

export type InviteScreen = { kind: "ready"; ownEmail: string } | { kind: "no-couple" } | { kind: "couple-complete" };

/** What /invite-partner shows the user: the form (partner A of a couple still waiting for partner 2) or why not. */
export async function inviteScreen(db: Db, userId: string): Promise<InviteScreen> {
  const [row] = await db
    .select({ email: users.email, partner1Id: couples.partner1Id, partner2Id: couples.partner2Id, partner2Unproven })
    .from(users)
    .leftJoin(couples, partnerOf(users.id))
    .leftJoin(partner2, eq(partner2.id, couples.partner2Id))
    .where(eq(users.id, userId));
  if (!row?.partner1Id) return { kind: "no-couple" };
  if (isFull(row)) return { kind: "couple-complete" };
  return { kind: "ready", ownEmail: row.email };
}
