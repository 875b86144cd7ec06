import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { LIMITS, checkLimit, clearHits, recordHit } from "@/lib/rate-limit";
import { burnPasswordCheck, verifyPassword } from "./password";

export const INVALID_CREDENTIALS_MESSAGE = "Invalid email or password. Please try again.";
export const EMAIL_NOT_CONFIRMED_MESSAGE =
  "Please verify your email address before logging in. Check your inbox for the verification link.";

export type AuthenticatedUser = { id: string; email: string; emailVerifiedAt: Date };

/**
 * Checks an e-mail and password, for browser sign-in and the token endpoint alike.
 * Unknown e-mails cost the same hashing time as wrong passwords, a locked account is refused
 * before the password is looked at, and 'not verified' is only said to whoever knows the password.
 */
export async function authenticate(
  db: Db,
  input: { email: string; password: string },
  context: { clientAddress: string },
): Promise<AuthenticatedUser> {
  const email = input.email.trim().toLowerCase();
  const [account, address] = await Promise.all([
    checkLimit(db, LIMITS.signInPerAccount, email),
    checkLimit(db, LIMITS.signInPerAddress, context.clientAddress),
  ]);
  const blocked = !account.allowed ? account : !address.allowed ? address : null;
  if (blocked) {
    const minutes = Math.ceil(blocked.retryAfterSeconds / 60);
    throw new AppError(
      "ACCOUNT_LOCKED",
      `Too many sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      { retryAfterSeconds: blocked.retryAfterSeconds },
    );
  }
  const [user] = await db
    .select({ id: users.id, email: users.email, passwordHash: users.passwordHash, emailVerifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.email, email));
  let passwordMatches = false;
  if (user) passwordMatches = await verifyPassword(user.passwordHash, input.password);
  else await burnPasswordCheck(input.password);
  if (!user || !passwordMatches) {
    await recordHit(db, LIMITS.signInPerAccount, email);
    await recordHit(db, LIMITS.signInPerAddress, context.clientAddress);
    throw new AppError("INVALID_CREDENTIALS", INVALID_CREDENTIALS_MESSAGE);
  }
  await clearHits(db, LIMITS.signInPerAccount, email);
  if (!user.emailVerifiedAt) throw new AppError("EMAIL_NOT_CONFIRMED", EMAIL_NOT_CONFIRMED_MESSAGE);
  return { id: user.id, email: user.email, emailVerifiedAt: user.emailVerifiedAt };
}
