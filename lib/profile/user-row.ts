import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { userNotFound } from "@/lib/errors";
import { replacedImageUrls } from "@/lib/images/lifecycle";

/** The person's own fields as a change leaves them; never a password or token hash. */
const userRowColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  dateOfBirth: users.dateOfBirth,
  occupation: users.occupation,
  bio: users.bio,
  interests: users.interests,
  avatarUrl: users.avatarUrl,
  emailVerifiedAt: users.emailVerifiedAt,
};

export type UserChanges = Partial<typeof users.$inferInsert>;

/**
 * Changes the user's row inside the caller's transaction, with the photo it replaced (removed by
 * `discardReplacedImages` once committed). The row is locked first, so of two saves at once each
 * removes the photo the other did not keep.
 */
export async function updateUserRow(tx: Db, userId: string, changes: UserChanges) {
  const [previous] = await tx.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, userId)).for("update");
  if (!previous) throw userNotFound();
  const [row] = await tx.update(users).set(changes).where(eq(users.id, userId)).returning(userRowColumns);
  return { row: row!, replacedImages: replacedImageUrls([previous.avatarUrl], [row!.avatarUrl]) };
}
