import "server-only";
import { BANNED_EMAIL } from "@/lib/safety/rules";
import { isBannedEmail } from "@/lib/safety/sanctions";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { users } from "@/db/schema";
import { issueVerificationEmail } from "@/lib/auth/email-verification";
import { hashPassword, withPasswordSlot } from "@/lib/auth/password";
import { AppError } from "@/lib/errors";
import { LIMITS, consumeLimit } from "@/lib/rate-limit";
import type { RegistrationPayload } from "./schemas";

export const EMAIL_EXISTS_MESSAGE = "An account with this email already exists. Please sign in instead.";

export type RegisteredAccount = { user: { id: string; email: string; firstName: string }; emailIds: string[] };

/**
 * Creates an unverified account and its verification e-mail in one transaction: if any part
 * fails, nothing is left behind. The caller delivers the queued e-mail after commit.
 */
export async function registerAccount(db: Db, input: RegistrationPayload, context: { clientAddress: string }): Promise<RegisteredAccount> {
  const limit = await consumeLimit(db, LIMITS.registrationPerAddress, context.clientAddress);
  if (!limit.allowed) {
    throw new AppError("RATE_LIMITED", "Too many registration attempts. Please try again later.", {
      retryAfterSeconds: limit.retryAfterSeconds,
    });
  }
  // Hashing is slow: do it before the transaction holds any lock, in a sign-in's slot (any address
  // may register, as any may sign in: a flood of either must leave threads to the rest of the API).
  const passwordHash = await withPasswordSlot(() => hashPassword(input.password));
  return transaction(db, async (tx) => {
    const existing = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email));
    if (existing.length > 0) throw new AppError("EMAIL_EXISTS", EMAIL_EXISTS_MESSAGE);
    // A banned couple's partner does not come back under the same address.
    if (await isBannedEmail(tx, input.email)) throw new AppError("FORBIDDEN", BANNED_EMAIL);
    const inserted = await tx
      .insert(users)
      .values({
        email: input.email,
        passwordHash,
        firstName: input.firstName,
        lastName: input.lastName,
        dateOfBirth: input.dateOfBirth,
      })
      .onConflictDoNothing()
      .returning({ id: users.id, email: users.email, firstName: users.firstName });
    // A concurrent registration of the same address won the race.
    const user = inserted[0];
    if (!user) throw new AppError("EMAIL_EXISTS", EMAIL_EXISTS_MESSAGE);
    const emailId = await issueVerificationEmail(tx, user);
    return { user, emailIds: [emailId] };
  });
}
