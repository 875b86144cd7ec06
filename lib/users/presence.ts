import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { VANISHED_MESSAGE } from "@/lib/http/errors";

/**
 * What a foreign key's check does, for a write naming a person where no key does (an appeal's
 * author, a held hello's sender: their account's deletion erases those): their row key-share in
 * the write's transaction, before it writes. A deletion under way is waited for, and a person it
 * took answers `gone` (by default as a vanished reference does: 404), so nothing of theirs is
 * written after it.
 */
export async function holdPersonRow(tx: Db, userId: string, gone = () => new AppError("NOT_FOUND", VANISHED_MESSAGE)): Promise<void> {
  const [person] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("key share");
  if (!person) throw gone();
}
