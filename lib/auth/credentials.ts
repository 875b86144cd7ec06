import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { LIMITS, checkLimit, clearHits, recordHit, withLimitLock } from "@/lib/rate-limit";
import { burnPasswordCheck, verifyPassword } from "./password";
import { normalizeEmail } from "./rules";

export const INVALID_CREDENTIALS_MESSAGE = "Invalid email or password. Please try again.";
export const EMAIL_NOT_CONFIRMED_MESSAGE =
  "Please verify your email address before logging in. Check your inbox for the verification link.";

export type AuthenticatedUser = { id: string; email: string; emailVerifiedAt: Date };

function lockedOut(retryAfterSeconds: number): AppError {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return new AppError("ACCOUNT_LOCKED", `Too many sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, {
    retryAfterSeconds,
  });
}

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
  const email = normalizeEmail(input.email);
  const address = await checkLimit(db, LIMITS.signInPerAddress, context.clientAddress);
  if (!address.allowed) throw lockedOut(address.retryAfterSeconds);
  // Attempts on one account run one at a time: parallel guesses cannot slip past the count of
  // failures, and parallel correct sign-ins are never counted as failures.
  const outcome = await withLimitLock(db, LIMITS.signInPerAccount, email, async (tx) => {
    const account = await checkLimit(tx, LIMITS.signInPerAccount, email);
    if (!account.allowed) return { kind: "locked", retryAfterSeconds: account.retryAfterSeconds } as const;
    const [user] = await tx
      .select({ id: users.id, email: users.email, passwordHash: users.passwordHash, emailVerifiedAt: users.emailVerifiedAt })
      .from(users)
      .where(eq(users.email, email));
    let passwordMatches = false;
    if (user) passwordMatches = await verifyPassword(user.passwordHash, input.password);
    else await burnPasswordCheck(input.password);
    if (!user || !passwordMatches) {
      await recordHit(tx, LIMITS.signInPerAccount, email);
      await recordHit(tx, LIMITS.signInPerAddress, context.clientAddress);
      return { kind: "invalid" } as const;
    }
    await clearHits(tx, LIMITS.signInPerAccount, email);
    return { kind: "ok", user } as const;
  });
  // Thrown only now, so the failure counted above is committed.
  if (outcome.kind === "locked") throw lockedOut(outcome.retryAfterSeconds);
  if (outcome.kind === "invalid") throw new AppError("INVALID_CREDENTIALS", INVALID_CREDENTIALS_MESSAGE);
  const { user } = outcome;
  if (!user.emailVerifiedAt) throw new AppError("EMAIL_NOT_CONFIRMED", EMAIL_NOT_CONFIRMED_MESSAGE);
  return { id: user.id, email: user.email, emailVerifiedAt: user.emailVerifiedAt };
}
