import "server-only";
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { oneAtATime, sentJustNow, transaction } from "@/db/transaction";
import { eventDrafts, eventsWaitlist } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { lookupPlace } from "@/lib/locations/place";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { placesProvider, type PlacesProvider } from "@/lib/places";
import { cursorAfter, readCursor, rowsAfter } from "@/lib/pagination/cursor";
import { keysetPage, type KeysetPage } from "@/lib/pagination/page";
import { EVENT_DRAFTS_PAGE_SIZE, EVENT_MESSAGES } from "./rules";
import type { CreateEventInput } from "./schemas";

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

/** Whether the couple asked to be notified when events launch. */
export async function isOnWaitlist(db: Db, coupleId: string): Promise<boolean> {
  const [row] = await db
    .select({ coupleId: eventsWaitlist.coupleId })
    .from(eventsWaitlist)
    .where(eq(eventsWaitlist.coupleId, coupleId))
    .limit(1);
  return row !== undefined;
}

/** 'Notify us when events launch': once per couple; asking again changes nothing. */
export async function joinWaitlist(db: Db, couple: ActingCouple): Promise<{ onWaitlist: true }> {
  await db.insert(eventsWaitlist).values({ coupleId: couple.coupleId, userId: couple.userId }).onConflictDoNothing();
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

const draftsContext = (coupleId: string) => `event-drafts:${coupleId}`;
const INVALID_CURSOR = "This page of your drafts is no longer available. Please reload.";

/**
 * The couple's own drafts, newest first, a keyset page at a time (`GET /api/events?cursor=` and
 * /events' 'Load more'; event_drafts_couple_idx): nobody else ever sees them.
 */
export async function listDrafts(
  db: Db,
  { coupleId }: Pick<ActingCouple, "coupleId">,
  cursorText?: string,
): Promise<KeysetPage<EventDraft>> {
  const cursor = readCursor(draftsContext(coupleId), cursorText, INVALID_CURSOR);
  const rows = await db
    .select(draftColumns)
    .from(eventDrafts)
    .where(and(eq(eventDrafts.coupleId, coupleId), cursor ? rowsAfter(eventDrafts.createdAt, eventDrafts.id, cursor, "desc") : undefined))
    .orderBy(desc(eventDrafts.createdAt), desc(eventDrafts.id))
    .limit(EVENT_DRAFTS_PAGE_SIZE + 1);
  return keysetPage(rows, EVENT_DRAFTS_PAGE_SIZE, shapeDraft, (last) =>
    cursorAfter(draftsContext(coupleId), { sortKey: last.createdAt, id: last.id }),
  );
}

/** Every one of the couple's drafts, newest first: the data export holds them all. */
export async function draftsForExport(db: Db, coupleId: string): Promise<EventDraft[]> {
  const rows = await db
    .select(draftColumns)
    .from(eventDrafts)
    .where(eq(eventDrafts.coupleId, coupleId))
    .orderBy(desc(eventDrafts.createdAt), desc(eventDrafts.id));
  return rows.map(shapeDraft);
}

/**
 * Saves a paid event as a draft of the caller's couple; only couples with
 * can_create_paid_events may (403 PAID_EVENTS_NOT_ALLOWED). The place is resolved through the
 * places provider (the client's text is never trusted; a billed lookup, counted against the
 * caller's limit) and kept as its city-level name.
 */
export async function createDraft(
  db: Db,
  couple: ActingCouple,
  input: CreateEventInput,
  deps: { places?: PlacesProvider; clientAddress?: string } = {},
): Promise<EventDraft> {
  if (!couple.canCreatePaidEvents) throw new AppError("PAID_EVENTS_NOT_ALLOWED", EVENT_MESSAGES.notAllowed);
  // The same draft sent again after the first was saved costs no second billed lookup.
  const sentAgain = await draftJustSaved(db, couple.coupleId, input);
  if (sentAgain) return shapeDraft(sentAgain);
  const payer = { userId: couple.userId, clientAddress: deps.clientAddress, sessionToken: input.sessionToken };
  const place = await lookupPlace(db, deps.places ?? placesProvider(), input.placeId, "placeId", payer);
  const values = {
    title: input.title,
    startsAt: input.startsAt,
    placeId: place.placeId,
    placeName: place.location,
    capacity: input.capacity,
    priceCents: input.priceCents,
    currency: input.currency,
    description: input.description,
  };
  const row = await transaction(db, async (tx) => {
    // Checked and written one at a time per couple: the same draft sent twice (a double click, both partners) is saved once.
    await oneAtATime(tx, `event-draft:${couple.coupleId}`);
    const saved = await draftJustSaved(tx, couple.coupleId, values);
    if (saved) return saved;
    const [inserted] = await tx
      .insert(eventDrafts)
      .values({ coupleId: couple.coupleId, createdByUserId: couple.userId, ...values })
      .returning(draftColumns);
    return inserted!;
  });
  return shapeDraft(row);
}

/** The couple's draft with the same fields saved just now (SENT_AGAIN_SECONDS), or null. */
async function draftJustSaved(db: Db, coupleId: string, values: CreateEventInput) {
  const [saved] = await db
    .select(draftColumns)
    .from(eventDrafts)
    .where(
      and(
        eq(eventDrafts.coupleId, coupleId),
        sentJustNow(eventDrafts.createdAt),
        eq(eventDrafts.title, values.title),
        eq(eventDrafts.startsAt, values.startsAt),
        eq(eventDrafts.placeId, values.placeId),
        eq(eventDrafts.capacity, values.capacity),
        eq(eventDrafts.priceCents, values.priceCents),
        eq(eventDrafts.currency, values.currency),
        eq(eventDrafts.description, values.description),
      ),
    )
    .limit(1);
  return saved ?? null;
}

/**
 * Account deletion, in its transaction before the person's row goes: the drafts they wrote are their
 * words and go with them (guide: deleting an account erases the person everywhere); their
 * partner's stay with the couple. The author column alone would only be cleared (set null), and
 * the couple would keep them.
 */
export async function eraseDraftsOf(tx: Db, userId: string): Promise<void> {
  await tx.delete(eventDrafts).where(eq(eventDrafts.createdByUserId, userId));
}
