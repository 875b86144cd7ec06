import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { EntityRef } from "./schemas";
import { partnerOf } from "@/lib/membership/partner";
import { standing, type Viewer } from "@/lib/safety/visibility";
import { userAccount } from "@/lib/auth/users";
import { completeAccountCouple } from "@/lib/http/access";

export type Actor = { userId: string };

/** A user's location is theirs alone; a couple's belongs to either partner. */
export async function canWrite(db: Db, entity: EntityRef, actor: Actor): Promise<boolean> {
  if (entity.entityType === "user") return entity.entityId === actor.userId;
  const [couple] = await db
    .select({ id: couples.id })
    .from(couples)
    .where(and(eq(couples.id, entity.entityId), partnerOf(actor.userId)))
    .limit(1);
  return couple !== undefined;
}

/** The same answer for another couple and a couple that does not exist: ids are not probed. */
export async function assertCanWrite(db: Db, entity: EntityRef, actor: Actor): Promise<void> {
  if (!(await canWrite(db, entity, actor))) {
    throw new AppError("FORBIDDEN", "You can only change the location of your own profile or your own couple.");
  }
}

/**
 * How `actor` may see the entity's place (lib/safety/visibility.ts): as its own (themself or
 * their partner, the partners of a couple), as another couple (only a couple they may see), or
 * not at all (null): a person's own place is never shown outside their couple. Another couple's
 * place is for a couple that finished onboarding, as nearby, the directory and a couple's profile
 * are (spec section 2): anyone else is PROFILE_INCOMPLETE whichever couple they name, so the answer
 * tells nothing of it.
 */
export async function placeViewer(db: Db, entity: EntityRef, actor: Actor): Promise<Viewer | null> {
  if (entity.entityType === "user") {
    if (entity.entityId === actor.userId) return "own";
    const [shared] = await db
      .select({ id: couples.id })
      .from(couples)
      .where(and(partnerOf(actor.userId), partnerOf(entity.entityId)))
      .limit(1);
    return shared ? "own" : null;
  }
  const viewer = (await standing(db, { userId: actor.userId }, entity.entityId))?.viewer ?? null;
  if (viewer !== "own") completeAccountCouple(await userAccount(db, actor.userId));
  return viewer;
}
