import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";

/**
 * Records a person's first dashboard visit (lib/dashboard/rules.ts `greeting`) and answers when it
 * was. Only a first visit writes; when two tabs race, the one that loses answers now, which reads
 * the same.
 */
export async function recordWelcome(db: Db, userId: string): Promise<Date> {
  const now = new Date();
  const [row] = await db
    .update(users)
    .set({ welcomedAt: now })
    .where(and(eq(users.id, userId), isNull(users.welcomedAt)))
    .returning({ welcomedAt: users.welcomedAt });
  return row?.welcomedAt ?? now;
}
