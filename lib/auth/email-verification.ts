import "server-only";
import { and, eq, isNotNull, sql, type Column } from "drizzle-orm";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { users, userTokens } from "@/db/schema";
import { AppError, userNotFound } from "@/lib/errors";
import { unprovenPartner } from "@/lib/membership/partner";
import { enqueueEmail } from "@/lib/mail/outbox";
import { verificationEmail } from "@/lib/mail/templates";
import { LIMITS, checkLimit, consumeLimit, recordHit } from "@/lib/rate-limit";
import { hashPassword, withPasswordSlot } from "./password";
import { normalizeEmail } from "./rules";
import { hashToken, newSecretToken } from "./secrets";
import { revokeAllSessions } from "./sessions";
import { findUserByEmail } from "./users";

export const VERIFICATION_TTL_SECONDS = 24 * 60 * 60;

/** Stores a fresh verification token and queues its e-mail; counts toward the hourly limit. */
export async function issueVerificationEmail(db: Db, user: { id: string; email: string; firstName: string }): Promise<string> {
  const token = newSecretToken();
  await db.insert(userTokens).values({
    userId: user.id,
    purpose: "verify_email",
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + VERIFICATION_TTL_SECONDS * 1000),
  });
  await recordHit(db, LIMITS.verificationCooldown, user.id);
  await recordHit(db, LIMITS.verificationPerHour, user.id);
  return enqueueEmail(db, { ...verificationEmail(user.email, user.firstName, token), recipientId: user.id });
}

export type ResendResult = { emailIds: string[]; attemptsRemaining: number };

/** Sends the verification e-mail again, within a 60 s cooldown and 5 e-mails an hour. */
export async function resendVerification(db: Db, userId: string): Promise<ResendResult> {
  return transaction(db, async (tx) => {
    const [user] = await tx
      .select({ id: users.id, email: users.email, firstName: users.firstName, verifiedAt: users.emailVerifiedAt })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!user) throw userNotFound();
    if (user.verifiedAt) throw new AppError("ALREADY_VERIFIED", "Your email is already verified!");
    const hourly = await checkLimit(tx, LIMITS.verificationPerHour, user.id);
    if (!hourly.allowed) {
      throw new AppError("RATE_LIMITED", "Maximum verification emails reached. Please wait 1 hour before trying again.", {
        retryAfterSeconds: hourly.retryAfterSeconds,
        body: { attemptsRemaining: 0 },
      });
    }
    const cooldown = await checkLimit(tx, LIMITS.verificationCooldown, user.id);
    if (!cooldown.allowed) {
      throw new AppError("RATE_LIMITED", `Please wait ${cooldown.retryAfterSeconds} seconds before requesting another email.`, {
        retryAfterSeconds: cooldown.retryAfterSeconds,
        body: { attemptsRemaining: hourly.remaining },
      });
    }
    const emailId = await issueVerificationEmail(tx, user);
    return { emailIds: [emailId], attemptsRemaining: hourly.remaining - 1 };
  });
}

const INVALID_LINK = "This verification link is invalid or has expired. Please request a new one.";
export const PASSWORD_REQUIRED_MESSAGE = "Choose your password to confirm your email: this account was made with a shared invitation link.";

/**
 * SQL: the account's address was proved (its verification link, an invitation's e-mailed link, a
 * reset, an address change's link): e-mail about what happens in the app goes to such an address
 * only. One nobody proved may be anyone's (a shareable link's account, unprovenPartner, is a member
 * of the couple all the same). Takes `users` or an alias of it.
 */
export const addressProven = (account: { emailVerifiedAt: Column }) => isNotNull(account.emailVerifiedAt);

/** unprovenPartner as a selected boolean: false, not null, where a left join found no account. */
export const selectUnprovenPartner = (account: { registrationType: Column; emailVerifiedAt: Column }) =>
  sql<boolean>`coalesce(${unprovenPartner(account)}, false)`;

/** A verification link's token with its account, locked for the caller's transaction when asked. */
async function verificationLink(db: Db, token: string, { lock = false } = {}) {
  const query = db
    .select({
      id: userTokens.id,
      userId: userTokens.userId,
      usedAt: userTokens.usedAt,
      expiresAt: userTokens.expiresAt,
      email: users.email,
      verifiedAt: users.emailVerifiedAt,
      choosesPassword: selectUnprovenPartner(users),
    })
    .from(userTokens)
    .innerJoin(users, eq(users.id, userTokens.userId))
    .where(and(eq(userTokens.tokenHash, hashToken(token)), eq(userTokens.purpose, "verify_email")));
  const [row] = lock ? await query.for("update") : await query;
  return row ?? null;
}

/**
 * Consumes a verification token. The e-mail must match the token's account. An account made
 * through a shareable link (unprovenPartner) is verified only with a `password`, which replaces
 * the link holder's, and every session of it ends (its refresh tokens with them): whoever reads
 * the mailbox ends up with the only working password. Any other account is verified as it is.
 */
export async function verifyEmail(db: Db, input: { token: string; email?: string; password?: string }): Promise<{ userId: string }> {
  // Hashing is slow: done only for a link that needs it, before the transaction locks anything,
  // in a sign-in's slot (the call is public and unlimited: a flood must leave libuv's threads).
  const peek = input.password ? await verificationLink(db, input.token) : null;
  const passwordHash = peek?.choosesPassword ? await withPasswordSlot(() => hashPassword(input.password!)) : null;
  return transaction(db, async (tx) => {
    const row = await verificationLink(tx, input.token, { lock: true });
    if (!row || (input.email && row.email !== normalizeEmail(input.email))) throw new AppError("INVALID_TOKEN", INVALID_LINK);
    // Opening the link a second time is not an error worth alarming anyone about.
    if (row.verifiedAt) throw new AppError("ALREADY_VERIFIED", "Your email is already verified!");
    if (row.usedAt || row.expiresAt.getTime() <= Date.now()) throw new AppError("INVALID_TOKEN", INVALID_LINK);
    if (row.choosesPassword && !passwordHash) throw new AppError("PASSWORD_REQUIRED", PASSWORD_REQUIRED_MESSAGE);
    const now = new Date();
    await tx.update(userTokens).set({ usedAt: now }).where(eq(userTokens.id, row.id));
    await tx
      .update(users)
      .set({ emailVerifiedAt: now, ...(row.choosesPassword ? { passwordHash: passwordHash! } : {}) })
      .where(eq(users.id, row.userId));
    if (row.choosesPassword) await revokeAllSessions(tx, row.userId);
    return { userId: row.userId };
  });
}

/**
 * The account a signed-out visitor on /verify-email asks a new e-mail for. Anyone can ask for
 * any address, so asking is limited per client address.
 */
export async function accountForResend(db: Db, email: string, context: { clientAddress: string }): Promise<string> {
  const limit = await consumeLimit(db, LIMITS.verificationPerAddress, context.clientAddress);
  if (!limit.allowed) {
    throw new AppError("RATE_LIMITED", "Too many requests. Please try again later.", { retryAfterSeconds: limit.retryAfterSeconds });
  }
  const user = await findUserByEmail(db, email);
  if (!user) throw userNotFound();
  return user.id;
}
