/**
 * What `npm run admin:grant` and `npm run moderator:grant` share: gives the account with EMAIL the
 * role (`-- --revoke EMAIL` makes it a member again), against the database the app would use, and
 * writes 'role granted' to the moderation log (no moderator: the command line did it).
 */
import { eq } from "drizzle-orm";
import { openDatabase } from "@/db/client";
import { transaction } from "@/db/transaction";
import { users } from "@/db/schema";
import { normalizeEmail } from "@/lib/auth/rules";
import type { Role } from "@/lib/membership/roles";
import { recordModeration } from "@/lib/safety/moderation-log";

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
    const granted = revoke ? "member" : role;
    const updated = await transaction(handle.db, async (tx) => {
      const rows = await tx
        .update(users)
        .set({ role: granted })
        .where(eq(users.email, normalizeEmail(email)))
        .returning({ id: users.id });
      for (const row of rows)
        await recordModeration(tx, { moderatorUserId: null, action: "role_granted", target: { type: "user", id: row.id }, note: granted });
      return rows;
    });
    if (updated.length === 0) {
      console.error(`${command}: no account with the e-mail ${email}`);
      process.exitCode = 1;
      return;
    }
    console.log(`${normalizeEmail(email)} is now ${revoke ? "a member" : `a${role === "admin" ? "n" : ""} ${role}`}.`);
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
