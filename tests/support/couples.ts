/** Helpers of the couples integration tests (each file sets the storage and places configuration first). */
import { and, eq } from "drizzle-orm";
import type { ImageStorage } from "@/lib/storage";
import { expect, vi } from "vitest";
import { POST as completeSetup } from "@/app/api/v2/profile/complete-setup/route";
import { POST as createCoupleRoute } from "@/app/api/v2/couples/route";
import { PUT as updateCoupleById } from "@/app/api/v2/couples/[id]/route";
import { PUT as updateCoupleFallback } from "@/app/api/couples/update/route";
import { GET as fullProfile } from "@/app/api/couples/[id]/full-profile/route";
import { getDb } from "@/db/client";
import { couples, locations } from "@/db/schema";
import { gazetteerProvider } from "@/lib/places/gazetteer";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { browserSession, call, createUser } from "./api";

export const LISBON = "geonames:2267057";
export const PORTO = "geonames:2735943";
export const NOT_STORED = "Please upload the photo here: links to images elsewhere are not accepted";

let imageCounter = 0;
/** A URL in the shape this app's local storage hands out (the checks are on the URL, not the file). */
export const ownImage = (folder = "couple-photo") => `/api/images/${folder}/${(++imageCounter).toString(16).padStart(32, "0")}.jpg`;

export type Headers = Record<string, string>;

export async function signedIn(overrides: Parameters<typeof createUser>[0] = {}) {
  const user = await createUser(overrides);
  const session = await browserSession(user.id);
  return { user, headers: { cookie: session.cookie, "x-csrf-token": session.csrf } as Headers };
}

/** A user who finished step 1: their photo, occupation, place and interests are saved (`overrides` change some). */
export const afterStep1 = (overrides: Parameters<typeof createUser>[0] = {}) =>
  signedIn({
    avatarUrl: ownImage("avatar"),
    occupation: "Engineer",
    interests: INTEREST_VALUES.slice(0, 6),
    location: "Porto, Portugal",
    placeId: PORTO,
    latitude: 41.14961,
    longitude: -8.61099,
    city: "Porto",
    country: "Portugal",
    countryCode: "PT",
    ...overrides,
  });

export const coupleBody = (overrides: Record<string, unknown> = {}) => ({
  coupleName: "Ada & Grace",
  coupleTypes: ["global_adventurers", "culture_curators"],
  placeId: LISBON,
  bio: "We travel, we cook, we argue about maps.",
  interests: INTEREST_VALUES.slice(2, 8),
  ...overrides,
});

export const setupBody = (overrides: { userData?: Record<string, unknown>; coupleData?: Record<string, unknown> } = {}) => ({
  userData: {
    firstName: "Ada",
    lastName: "Lovelace",
    dateOfBirth: "1990-05-17",
    occupation: "Engineer",
    bio: "Counting engines.",
    ...overrides.userData,
  },
  coupleData: {
    ...coupleBody(),
    location: "Somewhere made up",
    latitude: 0,
    longitude: 0,
    city: "Fake City",
    country: "Nowhere",
    countryCode: "XX",
    ...overrides.coupleData,
  },
});

export const postSetup = (body: unknown, headers: Headers) =>
  call(completeSetup, "POST", "/api/v2/profile/complete-setup", { body, headers });
export const postCouple = (body: unknown, headers: Headers) => call(createCoupleRoute, "POST", "/api/v2/couples", { body, headers });
export const putCouple = (id: string, body: unknown, headers: Headers) =>
  call(updateCoupleById, "PUT", `/api/v2/couples/${encodeURIComponent(id)}`, { body, headers, params: { id } });
export const putFallback = (body: unknown, headers: Headers) => call(updateCoupleFallback, "PUT", "/api/couples/update", { body, headers });
export const getProfile = (id: string, headers: Headers) =>
  call(fullProfile, "GET", `/api/couples/${encodeURIComponent(id)}/full-profile`, { headers: { cookie: headers.cookie! }, params: { id } });

/** A signed-in partner A with a complete couple, made through the API. */
export async function withCouple(overrides: Record<string, unknown> = {}) {
  const signed = await afterStep1();
  const res = await postCouple(coupleBody(overrides), signed.headers);
  expect(res.status).toBe(201);
  return { ...signed, coupleId: res.json.data.id as string };
}

export async function coupleRow(id: string) {
  const db = await getDb();
  const [row] = await db.select().from(couples).where(eq(couples.id, id));
  return row;
}

export async function coupleLocation(id: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(locations)
    .where(and(eq(locations.entityType, "couple"), eq(locations.entityId, id)));
  return row;
}

export async function couplesOf(userId: string) {
  const db = await getDb();
  return db.select({ id: couples.id }).from(couples).where(eq(couples.partner1Id, userId));
}

/** Gives the couple photos as the step 2 upload would: a JSON call may only name images its own rows show. */
export async function showPhotos(coupleId: string, images: { profileImageUrl?: string; photos?: string[] }) {
  const db = await getDb();
  await db.update(couples).set(images).where(eq(couples.id, coupleId));
}

/** Adds a signed-in partner B to the couple. */
export async function joinAsPartnerB(coupleId: string) {
  const b = await signedIn({ firstName: "Bea", lastName: "Byron", dateOfBirth: "1991-02-03", occupation: "Poet" });
  const db = await getDb();
  await db.update(couples).set({ partner2Id: b.user.id }).where(eq(couples.id, coupleId));
  return b;
}

/** An image storage that only records what is deleted. */
export function recordingStorage() {
  const deleted: string[] = [];
  const storage: ImageStorage = { put: async () => ({ url: "" }), read: async () => null, delete: async (key) => void deleted.push(key) };
  return { storage, deleted };
}

export const keyOf = (url: string) => url.replace(/^\/api\/images\//, "");

/** The offline places provider, counting the lookups made (each is billed with Google). */
export function countingPlaces() {
  const details = vi.fn(gazetteerProvider.details);
  return { places: { ...gazetteerProvider, details }, details };
}
