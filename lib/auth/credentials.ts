import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { LIMITS, checkLimit, clearHits, clearHitsStartingWith } from "@/lib/rate-limit";
import { trustedDevice } from "./device-cookie";
import { burnPasswordCheck, countedPasswordCheck, verifyPassword, type FailureCount } from "./password";
import { INVALID_CREDENTIALS_MESSAGE, normalizeEmail } from "./rules";
import { hashToken } from "./secrets";
import { assertCoupleNotSuspended } from "./sessions";

export const EMAIL_NOT_CONFIRMED_MESSAGE =
  "Please verify your email address before logging in. Check your inbox for the verification link.";

/**
 * Failed sign-ins count per account AND address together (OWASP's guidance): five wrong passwords
 * from one address lock the account there only, so strangers elsewhere cannot lock its owner out,
 * and each address's guesses at all accounts are bounded by LIMITS.signInPerAddress. Guesses spread
 * over many addresses meet the account's count from everywhere (LIMITS.signInPerAccountEverywhere),
 * which the owner's trusted devices never meet. An address holds no space and an e-mail address
 * none either, so the pair reads back unambiguously.
 */
const accountAtAddress = (email: string, clientAddress: string) => `${email} ${clientAddress}`;

/** Lifts the account's sign-in locks at every address (a password reset proves the mailbox). */
export async function liftSignInLocks(db: Db, email: string): Promise<void> {
  await clearHitsStartingWith(db, LIMITS.signInPerAccount, accountAtAddress(email, ""));
  await clearHits(db, LIMITS.signInPerAccountEverywhere, email);
}

/**
 * `credential`: a digest of the password hash the check matched, for the session it opens
 * (sessions.ts openSession), which opens only while that is still the account's password.
 */
export type AuthenticatedUser = { id: string; email: string; emailVerifiedAt: Date; credential: string };

/** The device's id when `deviceToken` was issued to a sign-in to the account with the password it has now. */
async function trustedDeviceOfAccount(db: Db, deviceToken: string, email: string): Promise<string | null> {
  const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.email, email));
  return user ? trustedDevice(deviceToken, { email, credential: hashToken(user.passwordHash) }) : null;
}

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
 * Failures lock the account at the address they came from (accountAtAddress), and for every
 * address once there are many more of them (LIMITS.signInPerAccountEverywhere). A browser that
 * signed in to this account with its current password (its device cookie, lib/auth/device-cookie) is not locked out
 * by others' failures: its own failures are counted for it alone. At most
 * PASSWORD_SLOTS (lib/thread-pool.ts) checks run at once; excess ones are refused with 503 after a short wait.
 */
export async function authenticate(
  db: Db,
  input: { email: string; password: string },
  context: { clientAddress: string; deviceToken?: string | null; forAppeal?: boolean },
): Promise<AuthenticatedUser> {
  const email = normalizeEmail(input.email);
  const device = context.deviceToken ? await trustedDeviceOfAccount(db, context.deviceToken, email) : null;
  // What a failure counts against: for a trusted device its own count alone (the per-address ones
  // would let a neighbour behind the same address lock it out, the one from everywhere anyone at
  // all; its own count already bounds its guesses); for anyone else the account at this address,
  // the address at every account and, last (its lock is the one held), the account from everywhere.
  const counts: [FailureCount, ...FailureCount[]] = device
    ? [[LIMITS.signInPerDevice, device]]
    : [
        [LIMITS.signInPerAccount, accountAtAddress(email, context.clientAddress)],
        [LIMITS.signInPerAddress, context.clientAddress],
        [LIMITS.signInPerAccountEverywhere, email],
      ];
  // An address over its limit is refused before it waits for a slot or a lock.
  if (!device) {
    const address = await checkLimit(db, LIMITS.signInPerAddress, context.clientAddress);
    if (!address.allowed) throw lockedOut(address.retryAfterSeconds);
  }
  const outcome = await countedPasswordCheck(db, counts, async (tx) => {
    const [user] = await tx
      .select({ id: users.id, email: users.email, passwordHash: users.passwordHash, emailVerifiedAt: users.emailVerifiedAt })
      .from(users)
      .where(eq(users.email, email));
    if (!user) {
      await burnPasswordCheck(input.password);
      return null;
    }
    return (await verifyPassword(user.passwordHash, input.password)) ? user : null;
  });
  // Thrown only now, so the failure counted above is committed.
  if (outcome.kind === "locked") throw lockedOut(outcome.retryAfterSeconds);
  if (outcome.kind === "wrong") throw new AppError("INVALID_CREDENTIALS", INVALID_CREDENTIALS_MESSAGE);
  const user = outcome.value;
  if (!user.emailVerifiedAt) throw new AppError("EMAIL_NOT_CONFIRMED", EMAIL_NOT_CONFIRMED_MESSAGE);
  // An appeal against a suspension is the one thing its partners may still prove they are.
  if (!context.forAppeal) await assertCoupleNotSuspended(db, user.id);
  return { id: user.id, email: user.email, emailVerifiedAt: user.emailVerifiedAt, credential: hashToken(user.passwordHash) };
}
