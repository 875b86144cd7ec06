/**
 * `npm run admin:grant -- EMAIL`: gives the account the admin role (the /moderation page and the
 * moderation API). `-- --revoke EMAIL` takes it back. Runs against the database the app would use.
 */
import { eq } from "drizzle-orm";
import { openDatabase } from "@/db/client";
import { users } from "@/db/schema";
import { normalizeEmail } from "@/lib/auth/rules";

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const revoke = args.includes("--revoke");
  const email = args.find((arg) => !arg.startsWith("--"));
  if (!email) {
    console.error("Usage: npm run admin:grant -- EMAIL   (or -- --revoke EMAIL)");
    process.exitCode = 2;
    return;
  }
  const handle = await openDatabase();
  try {
    await handle.migrate();
    const role = revoke ? "member" : "admin";
    const updated = await handle.db
      .update(users)
      .set({ role })
      .where(eq(users.email, normalizeEmail(email)))
      .returning({ id: users.id });
    if (updated.length === 0) {
      console.error(`admin:grant: no account with the e-mail ${email}`);
      process.exitCode = 1;
      return;
    }
    console.log(`${normalizeEmail(email)} is now ${revoke ? "a member" : "an admin"}.`);
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => {
  console.error(`admin:grant failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
