import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { LIMITS, checkLimit, clearHits, consumeLimit, recordHit } from "@/lib/rate-limit";
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
  const locked = (state: { retryAfterSeconds: number }) => {
    const minutes = Math.ceil(state.retryAfterSeconds / 60);
    return new AppError("ACCOUNT_LOCKED", `Too many sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, {
      retryAfterSeconds: state.retryAfterSeconds,
    });
  };
  const address = await checkLimit(db, LIMITS.signInPerAddress, context.clientAddress);
  if (!address.allowed) throw locked(address);
  // The attempt is counted before the password is checked, in one atomic step: checking first and
  // counting after the (slow) hash let parallel guesses all pass the check and exceed the 5 allowed.
  const account = await consumeLimit(db, LIMITS.signInPerAccount, email);
  if (!account.allowed) throw locked(account);
  const [user] = await db
    .select({ id: users.id, email: users.email, passwordHash: users.passwordHash, emailVerifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.email, email));
  let passwordMatches = false;
  if (user) passwordMatches = await verifyPassword(user.passwordHash, input.password);
  else await burnPasswordCheck(input.password);
  if (!user || !passwordMatches) {
    await recordHit(db, LIMITS.signInPerAddress, context.clientAddress);
    throw new AppError("INVALID_CREDENTIALS", INVALID_CREDENTIALS_MESSAGE);
  }
  await clearHits(db, LIMITS.signInPerAccount, email);
  if (!user.emailVerifiedAt) throw new AppError("EMAIL_NOT_CONFIRMED", EMAIL_NOT_CONFIRMED_MESSAGE);
  return { id: user.id, email: user.email, emailVerifiedAt: user.emailVerifiedAt };
}
