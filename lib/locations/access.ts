import "server-only";
import { and, eq, type Column, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { EntityRef } from "./schemas";
import { partnerOf } from "@/lib/couples/partner";
import { coupleOfUser, notBlockedBetween } from "@/lib/safety/blocks";

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
 * Whether neither the couple `coupleId` nor the viewer's couple has blocked the other: every
 * read of another couple's place (one location, nearby) goes through this one predicate.
 */
export function notBlockedEitherWay(viewerUserId: string | SQL, coupleId: Column): SQL {
  return notBlockedBetween(coupleOfUser(viewerUserId), coupleId);
}

/** The couples (rows of `couples`) others may find: active, visible, and not blocked either way. */
export function discoverableTo(viewerUserId: string | SQL): SQL {
  return and(eq(couples.status, "active"), eq(couples.isVisible, true), notBlockedEitherWay(viewerUserId, couples.id))!;
}

/**
 * How `actor` may see the entity's place: as its owner (themself or their partner, the partners
 * of a couple), as an outsider (only a couple discoverable to them), or not at all (null): a
 * person's own place is never shown outside their couple.
 */
export async function viewerOf(db: Db, entity: EntityRef, actor: Actor): Promise<"owner" | "other" | null> {
  if (entity.entityType === "user") {
    if (entity.entityId === actor.userId) return "owner";
    const [shared] = await db
      .select({ id: couples.id })
      .from(couples)
      .where(and(partnerOf(actor.userId), partnerOf(entity.entityId)))
      .limit(1);
    return shared ? "owner" : null;
  }
  if (await canWrite(db, entity, actor)) return "owner";
  const [found] = await db
    .select({ id: couples.id })
    .from(couples)
    .where(and(eq(couples.id, entity.entityId), discoverableTo(actor.userId)))
    .limit(1);
  return found ? "other" : null;
}
