/**
 * The bench's users: verified, paired into couples (so /api/v2/auth/me and /profile answer 200),
 * each with a live browser session and its cookie, as a sign-in would set it. Made before the
 * server starts: PGlite is single-process, so the bench cannot write to the data folder while the
 * server holds it.
 */
import { encode } from "next-auth/jwt";
import { openDatabase, type Db } from "@/db/client";
import { couples, users } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import { createSession } from "@/lib/auth/sessions";
import { BROWSER_SESSION_SECONDS } from "@/lib/auth/session-token";
import type { BenchDatabase } from "./databases";

export type Account = { id: string; email: string; cookie: string };

export const PASSWORD = "Bench-Pass-2026!";
const USER_COUNT = 20;
/** The app is served over http://localhost here, so the cookie has its plain name (also its JWE salt). */
const SESSION_COOKIE = "authjs.session-token";

/** `count` users in couples, each with a live browser session and its cookie. */
export async function createUsers(database: BenchDatabase, secret: string, count = USER_COUNT): Promise<Account[]> {
  // The database's own folder, not the one the configuration read first (an earlier section's).
  const handle = await openDatabase(database.env.DATABASE_URL, database.env.PGLITE_DIR);
  try {
    await handle.migrate();
    // One hash for all: the same password, and a few hundred hashes would take the bench a minute.
    const passwordHash = await hashPassword(PASSWORD);
    const hashes = Array.from({ length: count }, () => passwordHash);
    const accounts = await handle.db
      .insert(users)
      .values(
        hashes.map((passwordHash, i) => ({
          email: `bench${i}@bench.couples.test`,
          passwordHash,
          emailVerifiedAt: new Date(),
          firstName: "Bench",
          lastName: `User${i}`,
          dateOfBirth: "1990-01-01",
          occupation: "Load tester",
        })),
      )
      .returning({ id: users.id, email: users.email });
    // Couples make the profile complete: /me then answers 200 and runs its full join.
    const pairs = [];
    for (let i = 0; i + 1 < accounts.length; i += 2) {
      pairs.push({ partner1Id: accounts[i]!.id, partner2Id: accounts[i + 1]!.id, coupleName: `Bench pair ${i / 2}` });
    }
    await handle.db.insert(couples).values(pairs);
    return await Promise.all(
      accounts.map(async (account, i) => ({ ...account, cookie: await sessionCookie(handle.db, account.id, secret, i % 2 === 1) })),
    );
  } finally {
    await handle.close();
  }
}

/** A live browser session for a verified user with a complete profile, and its cookie (as a sign-in would set it). */
export async function sessionCookie(db: Db, userId: string, secret: string, isPartnerB: boolean): Promise<string> {
  const sid = await createSession(db, userId, "browser");
  const claims = { sub: userId, sid, emailVerified: true, profileComplete: true, isPartnerB };
  const token = await encode({ token: claims, secret, salt: SESSION_COOKIE, maxAge: BROWSER_SESSION_SECONDS });
  return `${SESSION_COOKIE}=${token}`;
}
