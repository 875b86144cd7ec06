import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { EntityRef } from "./schemas";
import { partnerOf } from "@/lib/couples/partner";

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
