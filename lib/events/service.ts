import "server-only";
import { desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, eventDrafts, eventsWaitlist } from "@/db/schema";
import { partnerOf } from "@/lib/membership/partner";
import { AppError } from "@/lib/errors";
import { resolvePlace } from "@/lib/locations/place";
import { placesProvider, type PlacesProvider } from "@/lib/places";
import { EVENT_MESSAGES } from "./rules";
import type { CreateEventInput } from "./schemas";

export type EventsCouple = { coupleId: string; canCreatePaidEvents: boolean; onWaitlist: boolean };

export type EventDraft = {
  id: string;
  title: string;
  startsAt: string;
  placeId: string;
  place: string;
  capacity: number;
  priceCents: number;
  currency: string;
  description: string;
  status: "draft";
  createdAt: string;
};

/** The caller's couple as the events pages need it: its flag and whether it asked to be notified. */
export async function eventsCouple(db: Db, userId: string): Promise<EventsCouple> {
  const [row] = await db
    .select({ coupleId: couples.id, canCreatePaidEvents: couples.canCreatePaidEvents, waiting: eventsWaitlist.coupleId })
    .from(couples)
    .leftJoin(eventsWaitlist, eq(eventsWaitlist.coupleId, couples.id))
    .where(partnerOf(userId))
    .limit(1);
  if (!row) throw new AppError("NO_COUPLE", "Create your couple profile first.");
  return { coupleId: row.coupleId, canCreatePaidEvents: row.canCreatePaidEvents, onWaitlist: row.waiting !== null };
}

/** 'Notify us when events launch': once per couple; asking again changes nothing. */
export async function joinWaitlist(db: Db, userId: string): Promise<{ onWaitlist: true }> {
  const { coupleId } = await eventsCouple(db, userId);
  await db.insert(eventsWaitlist).values({ coupleId, userId }).onConflictDoNothing();
  return { onWaitlist: true };
}

const draftColumns = {
  id: eventDrafts.id,
  title: eventDrafts.title,
  startsAt: eventDrafts.startsAt,
  placeId: eventDrafts.placeId,
  place: eventDrafts.placeName,
  capacity: eventDrafts.capacity,
  priceCents: eventDrafts.priceCents,
  currency: eventDrafts.currency,
  description: eventDrafts.description,
  createdAt: eventDrafts.createdAt,
};

const shapeDraft = (row: { startsAt: Date; createdAt: Date } & Omit<EventDraft, "startsAt" | "createdAt" | "status">): EventDraft => ({
  ...row,
  status: "draft",
  startsAt: row.startsAt.toISOString(),
  createdAt: row.createdAt.toISOString(),
});

/** The couple's own drafts, newest first: nobody else ever sees them. */
export async function listDrafts(db: Db, userId: string): Promise<EventDraft[]> {
  const { coupleId } = await eventsCouple(db, userId);
  const rows = await db
    .select(draftColumns)
    .from(eventDrafts)
    .where(eq(eventDrafts.coupleId, coupleId))
    .orderBy(desc(eventDrafts.createdAt))
    .limit(100);
  return rows.map(shapeDraft);
}

/**
 * Saves a paid event as a draft of the caller's couple; only couples with
 * can_create_paid_events may (403 PAID_EVENTS_NOT_ALLOWED). The place is resolved through the
 * places provider (the client's text is never trusted) and kept as its city-level name.
 */
export async function createDraft(
  db: Db,
  userId: string,
  input: CreateEventInput,
  places: PlacesProvider = placesProvider(),
): Promise<EventDraft> {
  const couple = await eventsCouple(db, userId);
  if (!couple.canCreatePaidEvents) throw new AppError("PAID_EVENTS_NOT_ALLOWED", EVENT_MESSAGES.notAllowed);
  const place = await resolvePlace(places, input.placeId, "placeId");
  const [row] = await db
    .insert(eventDrafts)
    .values({
      coupleId: couple.coupleId,
      createdByUserId: userId,
      title: input.title,
      startsAt: input.startsAt,
      placeId: place.placeId,
      placeName: place.location,
      capacity: input.capacity,
      priceCents: input.priceCents,
      currency: input.currency,
      description: input.description,
    })
    .returning(draftColumns);
  return shapeDraft(row!);
}
