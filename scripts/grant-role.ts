/**
 * What `npm run admin:grant` and `npm run moderator:grant` share: gives the account with EMAIL the
 * role (`-- --revoke EMAIL` makes it a member again), against the database the app would use, and
 * writes 'role granted' (or 'role revoked') to the moderation log (no moderator: the command line did it).
 */
import { openDatabase } from "@/db/client";
import { normalizeEmail } from "@/lib/auth/rules";
import { AppError } from "@/lib/errors";
import type { Role } from "@/lib/membership/roles";
import { setRole } from "@/lib/safety/moderators";

export async function grantRole(command: string, role: Exclude<Role, "member">): Promise<void> {
  const args = process.argv.slice(2);
  const revoke = args.includes("--revoke");
  const email = args.find((arg) => !arg.startsWith("--"));
  if (!email) {
    console.error(`Usage: npm run ${command} -- EMAIL   (or -- --revoke EMAIL)`);
    process.exitCode = 2;
    return;
  }
  const handle = await openDatabase();
  try {
    await handle.migrate();
    // The same domain function as the admins' page (/moderation/team): logged, with no admin.
    await setRole(handle.db, null, { email: normalizeEmail(email) }, revoke ? "member" : role);
    console.log(`${normalizeEmail(email)} is now ${revoke ? "a member" : `a${role === "admin" ? "n" : ""} ${role}`}.`);
  } catch (error) {
    if (!(error instanceof AppError && error.code === "NOT_FOUND")) throw error;
    console.error(`${command}: no account with the e-mail ${email}`);
    process.exitCode = 1;
  } finally {
    await handle.close();
  }
}

export function runGrant(command: string, role: Exclude<Role, "member">): void {
  grantRole(command, role).catch((error: unknown) => {
    console.error(`${command} failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
