import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { authSecret } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { decodeCursor, type Cursor } from "./cursor";
import { FORUM_MESSAGES } from "./schemas";

const cursorError = () =>
  new AppError("VALIDATION_ERROR", FORUM_MESSAGES.cursorInvalid, { fieldErrors: { cursor: FORUM_MESSAGES.cursorInvalid } });

export function readCursor(context: string, text: string | undefined): Cursor | null {
  if (text === undefined) return null;
  const cursor = decodeCursor(authSecret(), context, text);
  if (!cursor) throw cursorError();
  return cursor;
}

/** A cursor's sort key as SQL of the key's own type, so the row comparison is exact. */
export const keyValue = (key: Date | number): SQL =>
  key instanceof Date ? sql`${key.toISOString()}::timestamptz` : sql`${key}::double precision`;
