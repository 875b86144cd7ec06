import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
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

export function encodeCursor(secret: string, context: string, cursor: Cursor): string {
  const isDate = cursor.sortKey instanceof Date;
  const key = isDate ? (cursor.sortKey as Date).getTime() : (cursor.sortKey as number);
  if (!Number.isFinite(key)) throw new Error("A cursor's sort key must be a finite number or a valid date");
  const fields: Payload = cursor.pinnedAt
    ? [isDate ? "t" : "n", key, cursor.id, cursor.pinnedAt.getTime()]
    : [isDate ? "t" : "n", key, cursor.id];
  const payload = Buffer.from(JSON.stringify(fields)).toString("base64url");
  return `${payload}.${tag(secret, context, payload).toString("base64url")}`;
}

export function decodeCursor(secret: string, context: string, text: string): Cursor | null {
  if (text.length > CURSOR_MAX || !SHAPE.test(text)) return null;
  const [payload, given] = text.split(".") as [string, string];
  const expected = tag(secret, context, payload);
  const actual = Buffer.from(given, "base64url");
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  // Signed by us, so well-formed; checked anyway in case the secret ever signed something else.
  if (!Array.isArray(value) || (value.length !== 3 && value.length !== 4)) return null;
  const [kind, key, id, pinned] = value as unknown[];
  if ((kind !== "t" && kind !== "n") || typeof key !== "number" || !Number.isFinite(key) || typeof id !== "string" || !UUID.test(id))
    return null;
  if (pinned !== undefined && (typeof pinned !== "number" || !Number.isFinite(pinned))) return null;
  const cursor: Cursor = { sortKey: kind === "t" ? new Date(key) : key, id };
  if (typeof pinned === "number") cursor.pinnedAt = new Date(pinned);
  return cursor;
}

/** The app's cursor for a list's context. */
export const cursorAfter = (context: string, cursor: Cursor): string => encodeCursor(authSecret(), context, cursor);

/**
 * A request's cursor for a list's context, or null for the first page; one that does not verify
 * is the list's VALIDATION_ERROR (`message`, the list's own words) on the `cursor` field.
 */
export function readCursor(context: string, text: string | undefined, message: string): Cursor | null {
  if (text === undefined) return null;
  const cursor = decodeCursor(authSecret(), context, text);
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
