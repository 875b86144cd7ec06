import { parseWallClock } from "@/lib/plans/time";

/**
 * The event draft's limits and messages. Pure and browser-safe. The 'coming soon' message is
 * ./coming-soon.ts: the navigation shows it on every page, without these.
 */

export const EVENT_TITLE_MAX = 120;
export const EVENT_DESCRIPTION_MIN = 10;
export const EVENT_DESCRIPTION_MAX = 2000;
export const EVENT_CAPACITY_MIN = 2;
export const EVENT_CAPACITY_MAX = 500;
/** 10,000.00 in the currency's main unit. */
export const EVENT_PRICE_MAX_CENTS = 1_000_000;
/** How far ahead an event may be set: two years (a date past it is a slip of the year). */
export const EVENT_HORIZON_DAYS = 730;
/** The drafts /events shows at a time ('Load more' for the rest). */
export const EVENT_DRAFTS_PAGE_SIZE = 20;
export const EVENT_CURRENCIES = ["EUR", "GBP", "USD", "CHF", "CAD", "AUD"] as const;
export type EventCurrency = (typeof EVENT_CURRENCIES)[number];

export const EVENT_MESSAGES = {
  titleRequired: "Please give your event a title",
  titleTooLong: `Title must be no more than ${EVENT_TITLE_MAX} characters`,
  titleNotAllowed: "Title contains characters that are not allowed",
  startsAtRequired: "Please choose a date and time",
  startsAtPast: "Please choose a date and time in the future",
  startsAtTooFar: "Please choose a date within the next two years",
  placeRequired: "Please choose a place from the list",
  capacity: `Capacity must be a whole number from ${EVENT_CAPACITY_MIN} to ${EVENT_CAPACITY_MAX}`,
  price: `Price must be from 0 to ${(EVENT_PRICE_MAX_CENTS / 100).toLocaleString("en-GB")}, in cents (whole numbers)`,
  currency: `Currency must be one of ${EVENT_CURRENCIES.join(", ")}`,
  descriptionTooShort: `Please describe your event (at least ${EVENT_DESCRIPTION_MIN} characters)`,
  descriptionTooLong: `Description must be no more than ${EVENT_DESCRIPTION_MAX} characters`,
  descriptionNotAllowed: "Description contains characters that are not allowed",
  notAllowed: "Creating paid events is not available for your couple yet.",
  waitlistDone: "You're on the list: we will let you know when events launch.",
} as const;

/** '€25.00', 'Free'. */
export function formatPrice(priceCents: number, currency: string): string {
  if (priceCents === 0) return "Free";
  return new Intl.NumberFormat("en-GB", { style: "currency", currency }).format(priceCents / 100);
}

/** A datetime-local value ('2027-05-01T18:30') read as UTC, or an ISO string: null when unreadable. */
export function parseStartsAt(value: string): Date | null {
  const withZone = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/.test(value) ? `${value}Z` : value;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(withZone)) return null;
  // The day typed must exist, as a plan's must: JavaScript's Date rolls 30 February over to 2 March.
  if (!parseWallClock(withZone.slice(0, 16))) return null;
  const date = new Date(withZone);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The create form's fields as typed; `sessionToken`: the search session the pick of `placeId` ended, "" when none. */
export type EventFormValues = Record<
  "title" | "startsAt" | "placeId" | "sessionToken" | "capacity" | "price" | "currency" | "description",
  string
>;

/** The create form's date and time ('YYYY-MM-DDTHH:mm' in the browser's zone) as an ISO string; "" when it is no date. */
export function localStartsAt(local: string): string {
  const starts = local ? new Date(local) : null;
  return starts && !Number.isNaN(starts.getTime()) ? starts.toISOString() : "";
}

/** The create form's price per couple (a decimal point or comma) in cents; -1, refused, when it is no number. */
export function typedPriceCents(typed: string): number {
  const price = Number(typed.replace(",", "."));
  return typed.trim() === "" || !Number.isFinite(price) ? -1 : Math.round(price * 100);
}

/** The create form's fields as the call takes them (`POST /api/events`, the create action). */
export function eventValues({ price, startsAt, capacity, sessionToken, ...fields }: EventFormValues) {
  return {
    ...fields,
    ...(sessionToken && { sessionToken }),
    startsAt: localStartsAt(startsAt),
    capacity: Number(capacity),
    priceCents: typedPriceCents(price),
  };
}
