import "server-only";
import { eq, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, users } from "@/db/schema";
import { postAuthDestination } from "@/lib/auth/guard";
import { normalizeEmail } from "@/lib/auth/rules";
import { isProfileComplete } from "@/lib/auth/users";
import { coupleExists, markPartnerBComplete } from "@/lib/couples/service";
import { AppError, userNotFound } from "@/lib/errors";
import { discardReplacedImages, replacedImageUrls, storeUploads, withStoredImages } from "@/lib/onboarding/uploads";
import type { ImageStorage } from "@/lib/storage";
import { joinCouple, lockForJoin, openInvitation, throttleAccept } from "./join";
import { MESSAGES, type CompleteRegistrationInput } from "./rules";

export type CompletedRegistration = {
  user: { id: string; email: string; firstName: string; lastName: string; dateOfBirth: string; occupation: string | null; avatarUrl: string | null };
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
const coupleOf = async (db: Db, userId: string) =>
  (await db.select(coupleColumns).from(couples).where(or(eq(couples.partner1Id, userId), eq(couples.partner2Id, userId))))[0] ?? null;

/**
 * Completes the signed-in account's registration: names, birth date and (when given) occupation
 * and profile photo. With an invitation token the account also joins that couple as partner 2,
 * under the accept rules: the link must be open, sent to this account's address (which the
 * e-mailed link, not the shareable one, then proves), and the account must not have a couple
 * yet. One transaction; a stored photo is removed again if it fails.
 */
export async function completeRegistration(
  db: Db,
  userId: string,
  input: CompleteRegistrationInput,
  context: { clientAddress: string; avatar?: Uint8Array | null; storage?: ImageStorage },
): Promise<CompletedRegistration> {
  if (input.invitationToken) {
    await throttleAccept(db, context.clientAddress);
    await openInvitation(db, input.invitationToken);
  }
  const stored = context.avatar ? await storeUploads([{ bytes: context.avatar, kind: "avatar" }], context.storage) : [];
  const { result, replaced } = await withStoredImages(stored, context.storage, () =>
    db.transaction(async (tx) => {
      const now = new Date();
      const invitation = input.invitationToken ? await lockForJoin(tx, input.invitationToken, now) : null;
      const [account] = await tx.select({ email: users.email, avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, userId)).for("update");
      if (!account) throw userNotFound();
      const existing = await coupleOf(tx, userId);
      if (invitation) {
        if (normalizeEmail(account.email) !== invitation.partnerEmail) throw new AppError("FORBIDDEN", MESSAGES.otherAddress);
        if (existing) throw coupleExists(existing.id);
      }
      const [updated] = await tx
        .update(users)
        .set({
          firstName: input.firstName,
          lastName: input.lastName,
          dateOfBirth: input.dateOfBirth,
          ...(input.occupation ? { occupation: input.occupation } : {}),
          ...(stored[0] ? { avatarUrl: stored[0].url } : {}),
          ...(invitation ? { registrationType: "partner_invitation" } : {}),
          // Opening the link e-mailed to this address proves the address.
          ...(invitation?.provesAddress ? { emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now.toISOString()}::timestamptz)` } : {}),
        })
        .where(eq(users.id, userId))
        .returning({
          id: users.id,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
          dateOfBirth: users.dateOfBirth,
          occupation: users.occupation,
          avatarUrl: users.avatarUrl,
          emailVerifiedAt: users.emailVerifiedAt,
        });
      const { emailVerifiedAt, ...user } = updated!;
      if (invitation) await joinCouple(tx, invitation, user, now);
      // Partner B with a complete profile (partner setup asks for the occupation step 1 would) has
      // done their part, once their own address is proven: else partner A could fake the badge.
      if (user.occupation && emailVerifiedAt) await markPartnerBComplete(tx, userId);
      return {
        result: { user, couple: (await coupleOf(tx, userId)) ?? null, isExisting: existing !== null },
        replaced: replacedImageUrls([account.avatarUrl], [user.avatarUrl]),
      };
    }),
  );
  await discardReplacedImages(db, replaced, context.storage);
  return result;
}

/** Where the account belongs once completed: onboarding until its profile is complete, then the dashboard. */
export const destinationAfter = ({ user, couple }: CompletedRegistration): string =>
  postAuthDestination({ profileComplete: isProfileComplete({ ...user, coupleName: couple?.couple_name ?? null }) });

/**
 * The signed-in account of the invited address joins the couple as it is (its own names and
 * birth date): an invited partner who had an account already.
 */
export async function joinWithAccount(db: Db, userId: string, invitationToken: string, context: { clientAddress: string }): Promise<CompletedRegistration> {
  const [account] = await db.select({ firstName: users.firstName, lastName: users.lastName, dateOfBirth: users.dateOfBirth }).from(users).where(eq(users.id, userId));
  if (!account) throw userNotFound();
  return completeRegistration(db, userId, { ...account, invitationToken }, context);
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
      partner1Id: couples.partner1Id,
    })
    .from(couples)
    .where(eq(couples.partner2Id, userId));
  if (!row) return null;
  const people = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, dateOfBirth: users.dateOfBirth, occupation: users.occupation, avatarUrl: users.avatarUrl })
    .from(users)
    .where(or(eq(users.id, userId), eq(users.id, row.partner1Id)));
  const me = people.find((person) => person.id === userId);
  const partner = people.find((person) => person.id === row.partner1Id);
  if (!me || !partner) return null;
  const { id: _id, ...mine } = me;
  return {
    coupleName: row.coupleName,
    partnerFirstName: partner.firstName,
    location: row.location,
    interestCount: row.interests.length,
    coupleTypeCount: row.coupleTypes.length,
    photoCount: row.photos.length + (row.profileImageUrl ? 1 : 0),
    me: mine,
  };
}
