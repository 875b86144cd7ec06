import "server-only";
import { users } from "@/db/schema";
import { getDb, underMigrationLock, type Db } from "@/db/client";
import { seedDemo } from "./seed";

const hasAccounts = async (db: Db) => (await db.select({ id: users.id }).from(users).limit(1)).length > 0;

/**
 * A preview's database starts empty (a schema-only branch per pull request): its first instance
 * seeds the demo, so a reviewer can sign in as a demo couple at once. Under the migration lock,
 * so instances starting together seed once; the others find accounts and go on. A database with
 * any account is never touched, and the seed itself is idempotent.
 */
export async function seedPreviewOnce(): Promise<"seeded" | "had-accounts"> {
  if (await hasAccounts(await getDb())) return "had-accounts";
  return underMigrationLock(async (db) => {
    if (await hasAccounts(db)) return "had-accounts";
    await seedDemo(db);
    return "seeded";
  });
}
