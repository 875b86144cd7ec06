/**
 * `npm run couple:flag -- EMAIL can_create_paid_events`: turns a couple flag on for the couple
 * the account belongs to (as either partner). `-- --off EMAIL can_create_paid_events` turns it
 * off. Runs against the database the app would use.
 */
import { eq, or } from "drizzle-orm";
import { openDatabase } from "@/db/client";
import { couples, users } from "@/db/schema";
import { normalizeEmail } from "@/lib/auth/rules";

/** The flags this command may set: column name as the spec spells it, to the schema's field. */
const FLAGS = { can_create_paid_events: "canCreatePaidEvents" } as const;
type FlagName = keyof typeof FLAGS;
const isFlag = (name: string | undefined): name is FlagName => name !== undefined && Object.hasOwn(FLAGS, name);

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const off = args.includes("--off");
  const [email, flag] = args.filter((arg) => !arg.startsWith("--"));
  if (!email || !isFlag(flag)) {
    console.error(`Usage: npm run couple:flag -- EMAIL FLAG   (or -- --off EMAIL FLAG); FLAG is one of ${Object.keys(FLAGS).join(", ")}`);
    process.exitCode = 2;
    return;
  }
  const handle = await openDatabase();
  try {
    await handle.migrate();
    const [user] = await handle.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, normalizeEmail(email)))
      .limit(1);
    if (!user) {
      console.error(`couple:flag: no account with the e-mail ${email}`);
      process.exitCode = 1;
      return;
    }
    const updated = await handle.db
      .update(couples)
      .set({ [FLAGS[flag]]: !off })
      .where(or(eq(couples.partner1Id, user.id), eq(couples.partner2Id, user.id)))
      .returning({ name: couples.coupleName });
    if (updated.length === 0) {
      console.error(`couple:flag: ${email} has no couple yet`);
      process.exitCode = 1;
      return;
    }
    console.log(`${updated[0]!.name}: ${flag} is now ${off ? "off" : "on"}.`);
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => {
  console.error(`couple:flag failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
