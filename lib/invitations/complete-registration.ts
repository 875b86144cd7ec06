import "server-only";
import { eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { couples, users } from "@/db/schema";
import { postAuthDestination } from "@/lib/auth/guard";
import { normalizeEmail } from "@/lib/auth/rules";
import { isProfileComplete } from "@/lib/auth/users";
import { partnerOf } from "@/lib/membership/partner";
import { coupleIdOf } from "@/lib/couples/queries";
import { coupleExists, markPartnerBComplete } from "@/lib/couples/service";
import { AppError, userNotFound } from "@/lib/errors";
import { writeWithImages } from "@/lib/images/lifecycle";
import { PARTNER_WELCOME } from "@/lib/onboarding/router";
import { updateUserRow } from "@/lib/profile/service";
import { LIMITS, spendLimits } from "@/lib/rate-limit";
import type { ImageStorage } from "@/lib/storage";
import { accountColumns, detailsColumns } from "@/lib/users/projections";
import { joinCouple, lockForJoin, openInvitation, throttleAccept } from "./join";
import { MESSAGES } from "./rules";
import { type CompleteRegistrationInput } from "./schemas";

export type CompletedRegistration = {
  user: {
    id: string;
    email: string;
    firstName: string;
    lastName: string;
    dateOfBirth: string;
    occupation: string | null;
    avatarUrl: string | null;
  };
  couple: { id: string; couple_name: string; status: string; partner1_id: string; partner2_id: string | null } | null;
  /** The account already belonged to its couple before this call (partner B finishing set-up). */
  isExisting: boolean;
};

const coupleColumns = {
  id: couples.id,
  couple_name: couples.coupleName,
  status: couples.status,
  partner1_id: couples.partner1Id,
  partner2_id: couples.partner2Id,
};
const coupleOf = async (db: Db, userId: string) => (await db.select(coupleColumns).from(couples).where(partnerOf(userId)))[0] ?? null;

type Account = CompletedRegistration["user"];

/** The account, locked until the transaction ends (so two saves of one account run one after the other). */
async function lockAccount(tx: Db, userId: string): Promise<Account> {
  const [account] = await tx.select(accountColumns(users)).from(users).where(eq(users.id, userId)).for("update");
  if (!account) throw userNotFound();
  return account;
}

/** Public like the accept: attempts count against the caller's address, and a bad link is refused before any slow work. */
async function checkLinkFirst(db: Db, invitationToken: string, clientAddress: string): Promise<void> {
  await throttleAccept(db, clientAddress);
  await openInvitation(db, invitationToken);
}

/**
 * Inside a transaction: the signed-in account joins the invitation's couple as partner 2 under the
 * accept rules. Locks the account and the invitation (lockForJoin); the link must be sent to this
 * account's address and the account must not have a couple yet. The e-mailed link (not the
 * shareable one) proves the address. `names` are the ones partner A is told about, when the
 * caller is changing them.
 */
async function joinInvited(
  tx: Db,
  userId: string,
  invitationToken: string,
  now: Date,
  names?: { firstName: string; lastName: string },
): Promise<Account> {
  // The account, then the couple (lockForJoin): the order a deletion, a profile save and a
  // moderator's action take a partner's row and their couple (lib/safety/sanctions.ts lockedCouple).
  const account = await lockAccount(tx, userId);
  const invitation = await lockForJoin(tx, invitationToken, now);
  if (normalizeEmail(account.email) !== invitation.partnerEmail) throw new AppError("FORBIDDEN", MESSAGES.otherAddress);
  const existing = await coupleIdOf(tx, userId);
  if (existing) throw coupleExists(existing);
  await tx
    .update(users)
    .set({
      registrationType: "partner_invitation",
      // Opening the link e-mailed to this address proves the address.
      ...(invitation.provesAddress ? { emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now.toISOString()}::timestamptz)` } : {}),
    })
    .where(eq(users.id, userId));
  await joinCouple(tx, invitation, { id: userId, ...(names ?? account) }, now);
  return account;
}

/**
 * Completes the signed-in account's registration: names, birth date and (when given) occupation
 * and profile photo. With an invitation token the account also joins that couple as partner 2
 * (joinInvited). One transaction; a stored photo is removed again if it fails. Sent again it
 * saves the names again, so each call counts against LIMITS.profileSavesPerUser.
 */
export async function completeRegistration(
  db: Db,
  userId: string,
  input: CompleteRegistrationInput,
  context: { clientAddress: string; avatar?: Uint8Array | null; storage?: ImageStorage },
): Promise<CompletedRegistration> {
  await spendLimits(db, [[LIMITS.profileSavesPerUser, userId]]);
  const { invitationToken } = input;
  if (invitationToken) await checkLinkFirst(db, invitationToken, context.clientAddress);
  const uploads = context.avatar ? [{ bytes: context.avatar, kind: "avatar" as const }] : [];
  return writeWithImages(db, userId, { uploads, storage: context.storage }, async (tx, stored) => {
    if (invitationToken) await joinInvited(tx, userId, invitationToken, new Date(), input);
    // Through the profile's one write: a replaced photo asks for photo verification again.
    const { row, replacedImages } = await updateUserRow(tx, userId, {
      firstName: input.firstName,
      lastName: input.lastName,
      dateOfBirth: input.dateOfBirth,
      ...(input.occupation ? { occupation: input.occupation } : {}),
      ...(stored[0] ? { avatarUrl: stored[0].url } : {}),
    });
    await markPartnerBComplete(tx, userId);
    const couple = await coupleOf(tx, userId);
    const { id, email, firstName, lastName, dateOfBirth, occupation, avatarUrl } = row;
    return {
      result: {
        user: { id, email, firstName, lastName, dateOfBirth, occupation, avatarUrl },
        couple,
        isExisting: !invitationToken && couple !== null,
      },
      replaced: replacedImages,
    };
  });
}

/** Where the account belongs once completed: onboarding until its profile is complete, then the dashboard's welcome to the couple. */
export const destinationAfter = ({ user, couple }: CompletedRegistration): string => {
  const destination = postAuthDestination({ profileComplete: isProfileComplete({ ...user, coupleName: couple?.couple_name ?? null }) });
  return destination === "/dashboard" && couple ? PARTNER_WELCOME : destination;
};

/**
 * The signed-in account of the invited address joins the couple as it is (its own names and
 * birth date): an invited partner who had an account already.
 */
export async function joinWithAccount(
  db: Db,
  userId: string,
  invitationToken: string,
  context: { clientAddress: string },
): Promise<CompletedRegistration> {
  await checkLinkFirst(db, invitationToken, context.clientAddress);
  return transaction(db, async (tx) => {
    const user = await joinInvited(tx, userId, invitationToken, new Date());
    await markPartnerBComplete(tx, userId);
    return { user, couple: await coupleOf(tx, userId), isExisting: false };
  });
}

export type PartnerSetupView = {
  coupleName: string;
  partnerFirstName: string;
  location: string | null;
  interestCount: number;
  coupleTypeCount: number;
  photoCount: number;
  me: { firstName: string; lastName: string; dateOfBirth: string; occupation: string | null; avatarUrl: string | null };
};

const me = alias(users, "me");
const partnerA = alias(users, "partner_a");

/** What /partner-setup shows partner B: their own details and what partner A already set up. Null for anyone else. */
export async function partnerSetupView(db: Db, userId: string): Promise<PartnerSetupView | null> {
  const [row] = await db
    .select({
      coupleName: couples.coupleName,
      location: couples.location,
      interests: couples.interests,
      coupleTypes: couples.coupleTypes,
      photos: couples.photos,
      profileImageUrl: couples.profileImageUrl,
      partnerFirstName: partnerA.firstName,
      me: detailsColumns(me),
    })
    .from(couples)
    .innerJoin(me, eq(me.id, couples.partner2Id))
    .innerJoin(partnerA, eq(partnerA.id, couples.partner1Id))
    .where(eq(couples.partner2Id, userId));
  if (!row) return null;
  return {
    coupleName: row.coupleName,
    partnerFirstName: row.partnerFirstName,
    location: row.location,
    interestCount: row.interests.length,
    coupleTypeCount: row.coupleTypes.length,
    photoCount: row.photos.length + (row.profileImageUrl ? 1 : 0),
    me: row.me,
  };
}
