import "server-only";
import { inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, users } from "@/db/schema";

/**
 * Key-shares the rows a forum write's inserts name (its people in id order, then its couples)
 * before it locks a post's or reply's row (a moderator's removal and a hiding by reports too:
 * ./safety.ts): an account's deletion holds the person and their
 * couple, then empties their posts and, last, their replies' author, so a write waits for it
 * first, never holding a row the deletion updates next while it waits on the ones it holds
 * (lib/account/deletion.ts; the foreign keys of a notice, a mention, a reply or a bell told at
 * the commit take these anyway).
 */
export async function holdNamedRows(tx: Db, userIds: readonly (string | null)[], coupleIds: readonly (string | null)[]): Promise<void> {
  const people = [...new Set(userIds.filter((id) => id !== null))];
  const named = [...new Set(coupleIds.filter((id) => id !== null))];
  if (people.length > 0) await tx.select({ id: users.id }).from(users).where(inArray(users.id, people)).orderBy(users.id).for("key share");
  if (named.length > 0)
    await tx.select({ id: couples.id }).from(couples).where(inArray(couples.id, named)).orderBy(couples.id).for("key share");
}
