import "server-only";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";

export const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);

export type UserSeed = Omit<typeof users.$inferInsert, "id" | "createdAt" | "updatedAt">;

/** Inserts the account, or resets an existing one (password included) to the demo values. */
export async function upsertUser(db: Db, values: UserSeed): Promise<string> {
  const { email: _email, ...rest } = values;
  const [row] = await db
    .insert(users)
    .values(values)
    .onConflictDoUpdate({ target: users.email, set: { ...rest, updatedAt: new Date() } })
    .returning({ id: users.id });
  return row!.id;
}
