import "server-only";
import { and, asc, desc, eq, gt, isNull, ne } from "drizzle-orm";
import type { Db } from "@/db/client";
import { hasErrorCode } from "@/db/error-codes";
import { oneAtATime, transaction } from "@/db/transaction";
import { sessions, users, userTokens } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { enqueueEmail } from "@/lib/mail/outbox";
import { emailChangeEmail, emailChangeNotice, passwordChangedNotice } from "@/lib/mail/templates";
import { LIMITS, consumeLimit } from "@/lib/rate-limit";
import { BANNED_EMAIL_CHANGE } from "@/lib/safety/rules";
import { isBannedEmail } from "@/lib/safety/sanctions";
import { issueTokens, type ApiSession } from "./api-tokens";
import { describeDevice } from "./device";
import type { DeviceSignIn } from "./device-cookie";
import { countedPasswordCheck, hashPassword, verifyPassword, withPasswordSlot } from "./password";
import { endLinksOfOldPassword, type EndedWithOldPassword } from "./password-reset";
import { TOKEN_MAX } from "./rules";
import { hashToken, newSecretToken } from "./secrets";
import { assertCoupleNotSuspended, replaceSession, revokeOtherSessions, revokeSession } from "./sessions";

export const EMAIL_EXISTS_MESSAGE = "An account with this email already exists.";
export const INVALID_PASSWORD_MESSAGE = "That password is not correct.";
export const TOO_MANY_PASSWORD_ATTEMPTS = "Too many wrong passwords. Please try again later.";
export const EMAIL_CHANGE_TTL_SECONDS = 24 * 60 * 60;
export const SAME_EMAIL_MESSAGE = "That is already your email address.";
export const INVALID_EMAIL_CHANGE_LINK = "This link is invalid or has expired. Please ask for a new one in your security settings.";

/**
 * Checks the signed-in person's password before a sensitive change (password, e-mail, deletion).
 * Wrong passwords are counted per person (LIMITS.passwordConfirmPerUser) and checked as sign-in
 * checks them (countedPasswordCheck): one at a time, so a stolen session cannot guess its way
 * through, not even with parallel guesses. Wrong: 403 INVALID_PASSWORD.
 */
export async function confirmPassword(db: Db, userId: string, password: string): Promise<void> {
  const outcome = await countedPasswordCheck(db, [[LIMITS.passwordConfirmPerUser, userId]], async (tx) => {
    const [user] = await tx.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
    if (!user) throw new AppError("UNAUTHENTICATED", "Not authenticated");
    return (await verifyPassword(user.passwordHash, password)) || null;
  });
  if (outcome.kind === "locked")
    throw new AppError("RATE_LIMITED", TOO_MANY_PASSWORD_ATTEMPTS, { retryAfterSeconds: outcome.retryAfterSeconds });
  if (outcome.kind === "wrong") throw new AppError("INVALID_PASSWORD", INVALID_PASSWORD_MESSAGE);
}

/** The session the caller goes on under after a password change: its id, and for an API client its new tokens. */
type SuccessorSession = { id: string; tokens: ApiSession | null };

/**
 * Sets a new password (the registration rules, checked by the schema) after the current one, and
 * ends every other session of the person, browser and API alike. The one that asked is replaced
 * by a fresh one (replaceSession): a stolen copy of its cookie or refresh token, a reason to
 * change a password, dies with the old password too. Outstanding reset links and a pending address
 * change die, with what the features list (`ended`: endLinksOfOldPassword), and the address is told. Returns how many other sessions were ended, the caller's successor session, and the
 * sign-in its browser's device cookie is bound to from now on (`device`: lib/auth/device-cookie.ts).
 */
export async function changePassword(
  db: Db,
  caller: { userId: string; sessionId: string },
  input: { currentPassword: string; newPassword: string },
  ended: readonly EndedWithOldPassword[],
): Promise<{ sessionsEnded: number; session: SuccessorSession; device: DeviceSignIn; emailIds: string[] }> {
  await confirmPassword(db, caller.userId, input.currentPassword);
  const passwordHash = await withPasswordSlot(() => hashPassword(input.newPassword));
  return transaction(db, async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ passwordHash })
      .where(eq(users.id, caller.userId))
      .returning({ email: users.email, firstName: users.firstName, emailVerifiedAt: users.emailVerifiedAt });
    if (!user) throw new AppError("UNAUTHENTICATED", "Not authenticated");
    await endLinksOfOldPassword(tx, caller.userId, ended);
    const sessionsEnded = await revokeOtherSessions(tx, caller.userId, caller.sessionId);
    // Ended meanwhile (signed out, ended from another device): the change is not made.
    const successor = await replaceSession(tx, caller.sessionId);
    if (!successor) throw new AppError("UNAUTHENTICATED", "Not authenticated");
    const tokens = successor.kind === "api" ? await issueTokens(tx, successor, { id: caller.userId, ...user }) : null;
    return {
      sessionsEnded,
      session: { id: successor.id, tokens },
      device: { email: user.email, credential: hashToken(passwordHash) },
      emailIds: [await enqueueEmail(tx, { ...passwordChangedNotice(user.email, user.firstName), recipientId: caller.userId })],
    };
  });
}

/** A Postgres unique violation (23505). */
const isUniqueViolation = (error: unknown) => hasErrorCode(error, (code) => code === "23505");

const emailTakenByOther = async (db: Db, email: string, userId: string) =>
  (
    await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, email), ne(users.id, userId)))
      .limit(1)
  ).length > 0;

/**
 * Starts an e-mail change: a single-use link (24 h) to the new address, a notice to the old one.
 * Nothing about the account changes until the link is used. An earlier pending change is
 * replaced. Returns the queued e-mails' ids (delivered after the response).
 */
export async function requestEmailChange(
  db: Db,
  userId: string,
  input: { password: string; newEmail: string },
): Promise<{ emailIds: string[] }> {
  await confirmPassword(db, userId, input.password);
  // Every attempt counts before the address is looked up, answered 409 or not: otherwise the
  // "already exists" answer tells which addresses have accounts without limit.
  const limit = await consumeLimit(db, LIMITS.emailChangePerUser, userId);
  if (!limit.allowed) {
    throw new AppError("RATE_LIMITED", "Too many email change requests. Please try again later.", {
      retryAfterSeconds: limit.retryAfterSeconds,
    });
  }
  const [user] = await db.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError("UNAUTHENTICATED", "Not authenticated");
  if (user.email === input.newEmail)
    throw new AppError("VALIDATION_ERROR", SAME_EMAIL_MESSAGE, { fieldErrors: { newEmail: SAME_EMAIL_MESSAGE } });
  if (await emailTakenByOther(db, input.newEmail, userId)) throw new AppError("EMAIL_EXISTS", EMAIL_EXISTS_MESSAGE);
  // A banned couple's partner's address is refused here as at registration (its keyed hash).
  if (await isBannedEmail(db, input.newEmail)) throw new AppError("FORBIDDEN", BANNED_EMAIL_CHANGE);
  return transaction(db, async (tx) => {
    // One request at a time per person: two at once would each end the links before either's
    // insert, and leave two live links to two addresses.
    await oneAtATime(tx, `email-change:${userId}`);
    const now = new Date();
    await tx
      .update(userTokens)
      .set({ usedAt: now })
      .where(and(eq(userTokens.userId, userId), eq(userTokens.purpose, "change_email"), isNull(userTokens.usedAt)));
    const token = newSecretToken();
    await tx.insert(userTokens).values({
      userId,
      purpose: "change_email",
      tokenHash: hashToken(token),
      newEmail: input.newEmail,
      expiresAt: new Date(now.getTime() + EMAIL_CHANGE_TTL_SECONDS * 1000),
    });
    const ids = [
      await enqueueEmail(tx, { ...emailChangeEmail(input.newEmail, user.firstName, token), recipientId: userId }),
      await enqueueEmail(tx, { ...emailChangeNotice(user.email, user.firstName, input.newEmail), recipientId: userId }),
    ];
    return { emailIds: ids };
  });
}

/** SQL on `user_tokens`: the e-mail change link `token` stands for, while it works (unused, unexpired). */
const liveEmailChange = (token: string) =>
  and(
    eq(userTokens.tokenHash, hashToken(token)),
    eq(userTokens.purpose, "change_email"),
    isNull(userTokens.usedAt),
    gt(userTokens.expiresAt, new Date()),
  );

/**
 * The address an e-mail change link would move the signed-in person's account to, for the link's
 * page to name before 'Confirm my new email' (so the owner can tell a change they never asked
 * for); null for a link of another account, used, expired or unknown: nothing of anyone else's change.
 */
export async function pendingEmailChange(db: Db, userId: string, token: string): Promise<string | null> {
  if (token.length > TOKEN_MAX) return null;
  const [row] = await db
    .select({ newEmail: userTokens.newEmail })
    .from(userTokens)
    .where(and(liveEmailChange(token), eq(userTokens.userId, userId)));
  return row?.newEmail ?? null;
}

/**
 * Uses an e-mail change link: the signed-in person's address becomes the new one (verified, since
 * the link reached it). A link of another account, used, expired or unknown is INVALID_TOKEN with
 * nothing changed. Sessions stay as they are; the links mailed to the old address stop working.
 * Device cookies name the address their sign-in used (lib/auth/device-cookie.ts), so every
 * browser's trust ends with the old address until its next sign-in, but the confirming one's:
 * `device` is the sign-in its cookie is bound to from now on.
 */
export async function confirmEmailChange(db: Db, userId: string, token: string): Promise<{ email: string; device: DeviceSignIn }> {
  return transaction(db, async (tx) => {
    const [row] = await tx
      .select({ id: userTokens.id, userId: userTokens.userId, newEmail: userTokens.newEmail })
      .from(userTokens)
      .where(liveEmailChange(token))
      .for("update");
    if (!row || row.userId !== userId || !row.newEmail) throw new AppError("INVALID_TOKEN", INVALID_EMAIL_CHANGE_LINK);
    // The person's row as the address's update locks it (a unique column), taken before the couple
    // is read: a ban under way (it key-shares the row, then hashes the partners' addresses) is
    // waited for and refuses the change once committed, as it refuses a sign-in, so the address a
    // banned partner has is the one kept.
    const [user] = await tx.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).for("update");
    if (!user) throw new AppError("UNAUTHENTICATED", "Not authenticated");
    await assertCoupleNotSuspended(tx, userId);
    if (await emailTakenByOther(tx, row.newEmail, userId)) throw new AppError("EMAIL_EXISTS", EMAIL_EXISTS_MESSAGE);
    // The address may have been banned since the link was sent.
    if (await isBannedEmail(tx, row.newEmail)) throw new AppError("FORBIDDEN", BANNED_EMAIL_CHANGE);
    const now = new Date();
    await tx.update(userTokens).set({ usedAt: now }).where(eq(userTokens.id, row.id));
    // Every other link of the account stops working: those mailed to the old address (a password
    // reset, a verification), whose mailbox no longer speaks for the account, and other changes.
    await tx
      .update(userTokens)
      .set({ usedAt: now })
      .where(and(eq(userTokens.userId, userId), isNull(userTokens.usedAt)));
    try {
      await tx.update(users).set({ email: row.newEmail, emailVerifiedAt: now }).where(eq(users.id, userId));
    } catch (error) {
      // Another account took the address between the check and this write (users_email_key).
      if (isUniqueViolation(error)) throw new AppError("EMAIL_EXISTS", EMAIL_EXISTS_MESSAGE);
      throw error;
    }
    return { email: row.newEmail, device: { email: row.newEmail, credential: hashToken(user.passwordHash) } };
  });
}

/** One live session as the settings page shows it: no secrets, no address finer than none at all. */
export type SessionSummary = {
  id: string;
  device: string;
  kind: "browser" | "api";
  current: boolean;
  createdAt: string;
  lastSeenAt: string;
};

const live = (userId: string) => and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date()));

/** The person's live sessions, the current one first, then the most recently used. */
export async function listSessions(db: Db, caller: { userId: string; sessionId: string }): Promise<SessionSummary[]> {
  const rows = await db
    .select({
      id: sessions.id,
      kind: sessions.kind,
      userAgent: sessions.userAgent,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(live(caller.userId))
    .orderBy(desc(sessions.lastSeenAt), asc(sessions.id));
  const list = rows.map((row) => ({
    id: row.id,
    device: describeDevice(row.userAgent, row.kind),
    kind: row.kind,
    current: row.id === caller.sessionId,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: (row.lastSeenAt ?? row.createdAt).toISOString(),
  }));
  return [...list.filter((s) => s.current), ...list.filter((s) => !s.current)];
}

/** Signs out one of the person's own live sessions; anyone else's id, or an ended one, is NOT_FOUND. */
export async function endOwnSession(db: Db, userId: string, sessionId: string): Promise<void> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), live(userId)));
  if (!row) throw new AppError("NOT_FOUND", "Session not found");
  await revokeSession(db, row.id);
}

export { revokeOtherSessions };
