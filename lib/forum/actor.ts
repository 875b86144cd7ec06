import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { partnerOf } from "@/lib/membership/partner";

/** The signed-in person as the forum sees them: every read and write is scoped by their couple. */
export type ForumActor = {
  userId: string;
  firstName: string;
  coupleId: string;
  coupleName: string;
  coupleImageUrl: string | null;
  role: "member" | "admin";
};

export async function forumActor(db: Db, userId: string): Promise<ForumActor> {
  const [row] = await db
    .select({
      userId: users.id,
      firstName: users.firstName,
      role: users.role,
      coupleId: couples.id,
      coupleName: couples.coupleName,
      coupleImageUrl: couples.profileImageUrl,
    })
    .from(users)
    .innerJoin(couples, partnerOf(users.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw new AppError("NO_COUPLE", "You need a couple profile to take part in the forum.");
  return row;
}
