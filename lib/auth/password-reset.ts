import "server-only";
import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { users, userTokens } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { after } from "next/server";
import { describeError } from "@/lib/log";
import { deliverEmails, enqueueEmail } from "@/lib/mail/outbox";
import { passwordResetEmail } from "@/lib/mail/templates";
import { LIMITS, consumeLimit } from "@/lib/rate-limit";
import { liftSignInLocks } from "./credentials";
import { issueVerificationEmail, selectUnprovenPartner } from "./email-verification";
import { hashPassword, withPasswordSlot } from "./password";
import { hashToken, newSecretToken } from "./secrets";
import { revokeAllSessions } from "./sessions";
import { normalizeEmail } from "./rules";

export const RESET_TTL_SECONDS = 60 * 60;
export const RESET_REQUESTED_MESSAGE = "Password reset email sent! Check your inbox for the reset link.";
const INVALID_RESET_LINK = "This password reset link is invalid or has expired. Please request a new one.";

/** Runs work after the response is sent (Next's `after`; a test runs it when it chooses). */
export type AfterAnswer = (work: () => Promise<void>) => void;

/**
 * A reset request: the address's limit is counted, then the answer goes out; looking the address
 * up, the link and the e-mail come after it (queuePasswordReset). The answer is the same, after
 * the same work, whether the address has an account or not, so neither its words nor its timing
 * tell who has one.
 */
export async function requestPasswordReset(
  db: Db,
  email: string,
  context: { clientAddress: string },
  afterAnswer: AfterAnswer = after,
): Promise<void> {
  const address = await consumeLimit(db, LIMITS.passwordResetPerAddress, context.clientAddress);
  if (!address.allowed) {
    throw new AppError("RATE_LIMITED", "Too many password reset requests. Please try again later.", {
      retryAfterSeconds: address.retryAfterSeconds,
    });
  }
  afterAnswer(async () => {
    try {
      await deliverEmails(db, (await queuePasswordReset(db, email)).emailIds);
    } catch (error) {
      console.error("[password-reset] reset e-mail not queued", describeError(error));
    }
  });
}

/**
 * Queues a reset e-mail when the address has an account (at most LIMITS.passwordResetPerAccount an
 * hour); for an unproven shareable-link partner, its verification e-mail instead.
 */
export async function queuePasswordReset(db: Db, email: string): Promise<{ emailIds: string[] }> {
  return transaction(db, async (tx) => {
    const [user] = await tx
      .select({
        id: users.id,
        email: users.email,
        firstName: users.firstName,
        unproven: selectUnprovenPartner(users),
      })
      .from(users)
      .where(eq(users.email, normalizeEmail(email)));
    if (!user) return { emailIds: [] };
    const perAccount = await consumeLimit(tx, LIMITS.passwordResetPerAccount, user.id);
    if (!perAccount.allowed) return { emailIds: [] };
    // An account made with a shareable link that never proved its address is entered by its
    // verification link: it asks the mailbox's owner for a password and says the account was made
    // with a shared invitation link (verifyEmail). A reset would make them partner 2 unawares.
    if (user.unproven) return { emailIds: [await issueVerificationEmail(tx, user)] };
    const token = newSecretToken();
    await tx.insert(userTokens).values({
      userId: user.id,
      purpose: "reset_password",
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + RESET_TTL_SECONDS * 1000),
    });
    return { emailIds: [await enqueueEmail(tx, { ...passwordResetEmail(user.email, user.firstName, token), recipientId: user.id })] };
  });
}

/**
 * What a feature ends with the old password, in the new password's transaction, the person's row
 * written: what they set up that whoever knew the old password could still use (partner A's pending
 * invitation, lib/invitations/manage.ts). Listed in lib/registry/old-password.ts, which the callers
 * of a reset or a change hand in, so auth depends on no feature.
 */
export type EndedWithOldPassword = (tx: Db, userId: string, now: Date) => Promise<void>;

/**
 * Ends the account's outstanding links that a new password must end: its reset links, a pending
 * address change, which was asked with the old password (a thief who knew it could still lure the
 * owner into opening its link), and what the features list (`ended`). For a password reset and a
 * password change alike.
 */
export async function endLinksOfOldPassword(
  tx: Db,
  userId: string,
  ended: readonly EndedWithOldPassword[],
  now = new Date(),
): Promise<void> {
  await tx
    .update(userTokens)
    .set({ usedAt: now })
    .where(and(eq(userTokens.userId, userId), inArray(userTokens.purpose, ["reset_password", "change_email"]), isNull(userTokens.usedAt)));
  for (const end of ended) await end(tx, userId, now);
}

const resetTokenFilter = (token: string) =>
  and(
    eq(userTokens.tokenHash, hashToken(token)),
    eq(userTokens.purpose, "reset_password"),
    isNull(userTokens.usedAt),
    gt(userTokens.expiresAt, new Date()),
  );

/**
 * Sets the new password, uses up the link, lifts a sign-in lockout and ends every session, and
 * what the old password leaves (`ended`: lib/registry/old-password.ts).
 */
export async function resetPassword(
  db: Db,
  input: { token: string; password: string },
  ended: readonly EndedWithOldPassword[],
): Promise<void> {
  // A bad link is refused before any hashing: hashing is the expensive part.
  const [candidate] = await db.select({ id: userTokens.id }).from(userTokens).where(resetTokenFilter(input.token));
  if (!candidate) throw new AppError("INVALID_TOKEN", INVALID_RESET_LINK);
  const passwordHash = await withPasswordSlot(() => hashPassword(input.password));
  await transaction(db, async (tx) => {
    // Checked again under a row lock: two uses of one link cannot both succeed.
    const [row] = await tx
      .select({ id: userTokens.id, userId: userTokens.userId, email: users.email })
      .from(userTokens)
      .innerJoin(users, eq(users.id, userTokens.userId))
      .where(resetTokenFilter(input.token))
      .for("update", { of: userTokens });
    if (!row) throw new AppError("INVALID_TOKEN", INVALID_RESET_LINK);
    const now = new Date();
    // Following the link proves the mailbox, so the address counts as verified from now on.
    // Raw sql skips the column's Date encoding and postgres.js refuses a Date there: pass the ISO text.
    await tx
      .update(users)
      .set({ passwordHash, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now.toISOString()}::timestamptz)` })
      .where(eq(users.id, row.userId));
    // Every outstanding reset link of the account dies with this one, a pending address change and
    // what the features list; after the person's row, the order a change and an invitation's send
    // take the person and then their couple.
    await endLinksOfOldPassword(tx, row.userId, ended, now);
    await liftSignInLocks(tx, row.email);
    await revokeAllSessions(tx, row.userId);
  });
}
