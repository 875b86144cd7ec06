import "server-only";
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { sql, type Column, type SQL } from "drizzle-orm";
import { authSecret } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { CURSOR_MAX } from "./page";

/**
 * The signed cursor of every keyset list: the last row's sort key and id, signed with the list's
 * context (e.g. "posts:global:latest:...", "thread:{id}") so a client can neither forge a position
 * nor hand one list's cursor to another. A tampered, truncated or foreign cursor decodes to null,
 * which the API answers with 400.
 *
 * Timestamps travel as whole milliseconds: timestamp(3) columns (the forum's) are held exactly by
 * a JavaScript Date, so `(sort_key, id) < (cursor)` skips and repeats nothing. A list over a
 * microsecond column carries the microseconds as a number (the directory's newest).
 *
 * A signed cursor's position is readable. A list whose sort key says more than its page shows (the
 * directory's nearest: the exact distance from the viewer's own place, where a card shows a band)
 * seals its cursors instead: the same payload encrypted and authenticated (AES-256-GCM, the
 * context bound in), so it reads as nothing and still works only where it was made.
 */
export type Cursor = {
  sortKey: Date | number;
  id: string;
  /** A search's window (lib/forum/search.ts): its newest match when the first page was read. */
  pinnedAt?: Date;
};

const TAG_BYTES = 16;
const SHAPE = /^[\w-]+\.[\w-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Payload = ["t" | "n", number, string] | ["t" | "n", number, string, number];

/**
 * The context is signed with the payload, so a cursor only works where it was made. (The domain
 * string is the one the forum's cursors were first signed with: cursors handed out before stay good.)
 */
function tag(secret: string, context: string, payload: string): Buffer {
  return createHmac("sha256", secret).update(`forum-cursor:v1\0${context}\0${payload}`).digest().subarray(0, TAG_BYTES);
}

/** How a cursor travels: signed (its position readable, never forgeable) or sealed (neither). */
export type CursorForm = "signed" | "sealed";

const IV_BYTES = 12;

/** The key sealed cursors are encrypted with: the app's secret, derived for this use alone. */
const sealKey = (secret: string): Buffer => createHmac("sha256", secret).update("cursor-seal:v1").digest();

function payloadOf(cursor: Cursor): string {
  const isDate = cursor.sortKey instanceof Date;
  const key = isDate ? (cursor.sortKey as Date).getTime() : (cursor.sortKey as number);
  if (!Number.isFinite(key)) throw new Error("A cursor's sort key must be a finite number or a valid date");
  const fields: Payload = cursor.pinnedAt
    ? [isDate ? "t" : "n", key, cursor.id, cursor.pinnedAt.getTime()]
    : [isDate ? "t" : "n", key, cursor.id];
  return JSON.stringify(fields);
}

function cursorOf(json: string): Cursor | null {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  // Made by us, so well-formed; checked anyway in case the secret ever signed something else.
  if (!Array.isArray(value) || (value.length !== 3 && value.length !== 4)) return null;
  const [kind, key, id, pinned] = value as unknown[];
  if ((kind !== "t" && kind !== "n") || typeof key !== "number" || !Number.isFinite(key) || typeof id !== "string" || !UUID.test(id))
    return null;
  if (pinned !== undefined && (typeof pinned !== "number" || !Number.isFinite(pinned))) return null;
  const cursor: Cursor = { sortKey: kind === "t" ? new Date(key) : key, id };
  if (typeof pinned === "number") cursor.pinnedAt = new Date(pinned);
  return cursor;
}

/** Sealed: `iv and ciphertext.tag`, both base64url, the context authenticated with them. */
function seal(secret: string, context: string, json: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", sealKey(secret), iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([iv, cipher.update(json, "utf8"), cipher.final()]);
  return `${body.toString("base64url")}.${cipher.getAuthTag().toString("base64url")}`;
}

function unseal(secret: string, context: string, sealed: string, tagText: string): string | null {
  const body = Buffer.from(sealed, "base64url");
  const given = Buffer.from(tagText, "base64url");
  if (body.length <= IV_BYTES || given.length !== TAG_BYTES) return null;
  const decipher = createDecipheriv("aes-256-gcm", sealKey(secret), body.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(given);
  try {
    return Buffer.concat([decipher.update(body.subarray(IV_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

export function encodeCursor(secret: string, context: string, cursor: Cursor, form: CursorForm = "signed"): string {
  const json = payloadOf(cursor);
  if (form === "sealed") return seal(secret, context, json);
  const payload = Buffer.from(json).toString("base64url");
  return `${payload}.${tag(secret, context, payload).toString("base64url")}`;
}

export function decodeCursor(secret: string, context: string, text: string, form: CursorForm = "signed"): Cursor | null {
  if (text.length > CURSOR_MAX || !SHAPE.test(text)) return null;
  const [payload, given] = text.split(".") as [string, string];
  if (form === "sealed") {
    const json = unseal(secret, context, payload, given);
    return json === null ? null : cursorOf(json);
  }
  const expected = tag(secret, context, payload);
  const actual = Buffer.from(given, "base64url");
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
  return cursorOf(Buffer.from(payload, "base64url").toString("utf8"));
}

/** The app's cursor for a list's context. */
export const cursorAfter = (context: string, cursor: Cursor, form: CursorForm = "signed"): string =>
  encodeCursor(authSecret(), context, cursor, form);

/**
 * A request's cursor for a list's context, or null for the first page; one that does not verify
 * is the list's VALIDATION_ERROR (`message`, the list's own words) on the `cursor` field.
 */
export function readCursor(context: string, text: string | undefined, message: string, form: CursorForm = "signed"): Cursor | null {
  if (text === undefined) return null;
  const cursor = decodeCursor(authSecret(), context, text, form);
  if (!cursor) throw new AppError("VALIDATION_ERROR", message, { fieldErrors: { cursor: message } });
  return cursor;
}

/** A cursor's sort key as SQL of the key's own type, so the row comparison is exact. */
export const keyValue = (key: Date | number): SQL =>
  key instanceof Date ? sql`${key.toISOString()}::timestamptz` : sql`${key}::double precision`;

/**
 * SQL: the rows after the cursor in a list ordered by (key, id), ascending or descending. One row
 * comparison, which a btree index on (key, id) answers as a range.
 */
export const rowsAfter = (key: Column | SQL, id: Column, cursor: Cursor, order: "asc" | "desc"): SQL =>
  sql`(${key}, ${id}) ${sql.raw(order === "asc" ? ">" : "<")} (${keyValue(cursor.sortKey)}, ${cursor.id}::uuid)`;
