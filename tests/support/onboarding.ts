/** Helpers of the onboarding integration tests (tests/support/database-setup.ts gives each file its own STORAGE_DIR). */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import sharp from "sharp";
import { POST as step1 } from "@/app/api/onboarding/step1/route";
import { POST as step2 } from "@/app/api/onboarding/step2/route";
import { getDb } from "@/db/client";
import { locations } from "@/db/schema";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { browserSession, createUser, freshAddress } from "./api";

/** This file's uploads folder (local image storage). */
const uploadsDir = () => process.env.STORAGE_DIR!;

export const LISBON = "geonames:2267057";
export const PORTO = "geonames:2735943";
export type Handler = typeof step1;
export type Fields = Record<string, string | string[] | Buffer | Buffer[] | undefined>;

export const jpeg = (width = 900, height = 700) =>
  sharp({ create: { width, height, channels: 3, background: "#336699" } })
    .jpeg()
    .toBuffer();

/** A multipart form as the browser builds it: repeated names for lists, File parts for images. */
export function formOf(fields: Fields): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of value === undefined ? [] : Array.isArray(value) ? value : [value]) {
      if (typeof item === "string") form.append(name, item);
      else form.append(name, new File([new Uint8Array(item)], "photo.jpg", { type: "image/jpeg" }));
    }
  }
  return form;
}

/**
 * A form as it arrives over HTTP: its multipart bytes, with their boundary in Content-Type. (A
 * Request built on the FormData itself streams it from a generator that, on Node 24, writes into
 * the stream after a route stops reading an oversized body, an unhandled rejection.)
 */
async function multipart(form: FormData): Promise<{ bytes: Uint8Array<ArrayBuffer>; contentType: string }> {
  const encoded = new Response(form);
  return { bytes: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type")! };
}

export async function post(handler: Handler, url: string, body: FormData | string, headers: Record<string, string>) {
  const form = typeof body === "string" ? null : await multipart(body);
  const request = new NextRequest(new URL(url, "http://localhost:3000"), {
    method: "POST",
    headers: { "x-forwarded-for": freshAddress(), ...(form && { "content-type": form.contentType }), ...headers },
    body: form ? form.bytes : body,
  });
  const response = await handler(request, { params: Promise.resolve({}) as never });
  return { status: response.status, headers: response.headers, json: await response.json() };
}

export async function signedIn() {
  const user = await createUser();
  const session = await browserSession(user.id);
  return { user, headers: { cookie: session.cookie, "x-csrf-token": session.csrf } };
}

export const step1Fields = async (overrides: Fields = {}): Promise<Fields> => ({
  occupation: "Engineer",
  locationName: "Lisbon, Portugal",
  locationPlaceId: LISBON,
  userImage: await jpeg(),
  "interests[]": INTEREST_VALUES.slice(0, 6),
  ...overrides,
});

export const step2Fields = async (overrides: Fields = {}): Promise<Fields> => ({
  couple_name: "Ada & Grace",
  "coupleTypes[]": ["global_adventurers", "culture_curators"],
  bio: "We travel, we cook, we argue about maps.",
  coupleProfileImage: await jpeg(),
  couplePhotos: [await jpeg(1200, 800), await jpeg(800, 1200)],
  ...overrides,
});

export const postStep1 = async (headers: Record<string, string>, overrides: Fields = {}) =>
  post(step1, "/api/onboarding/step1", formOf(await step1Fields(overrides)), headers);
export const postStep2 = async (headers: Record<string, string>, overrides: Fields = {}) =>
  post(step2, "/api/onboarding/step2", formOf(await step2Fields(overrides)), headers);

/** Every stored file, as paths relative to the uploads folder. */
export async function storedFiles(): Promise<string[]> {
  const entries = await readdir(uploadsDir(), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(uploadsDir(), path.join(entry.parentPath, entry.name)))
    .sort();
}

export const fileOfUrl = (url: string) => path.join(uploadsDir(), url.replace(/^\/api\/images\//, ""));

export async function coupleLocationCount() {
  const db = await getDb();
  return (await db.select({ id: locations.id }).from(locations).where(eq(locations.entityType, "couple"))).length;
}
