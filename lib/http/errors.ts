import "server-only";
import { randomUUID } from "node:crypto";
import { NextResponse } from "next/server";
import { z } from "zod";
import { hasErrorCode } from "@/db/error-codes";
import { databaseInterrupted, isDatabaseUnavailable } from "@/db/supervised-pool";
import { AppError } from "@/lib/errors";
import { notAllowedMessage, UNSAFE_TEXT } from "@/lib/fields";
import { logUnexpected } from "@/lib/log";
import { readBoundedBody } from "./body";

/**
 * A JSON call carries names, ids and a few short texts, never files: 16 kB holds the longest
 * message (4,000 characters of three UTF-8 bytes each, and a photo's URL). A call whose valid
 * input can be longer declares its own size (`jsonBody`'s `maxBytes`).
 */
export const JSON_BODY_BYTES = 16_000;

export type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } } & Record<string, unknown>;

/** First message per field, for forms and API clients alike. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    fields[key] ??= issue.message;
  }
  return fields;
}

export function validationError(error: z.ZodError, message = "Please check that all information is filled out correctly."): AppError {
  return new AppError("VALIDATION_ERROR", message, { fieldErrors: fieldErrors(error) });
}

/**
 * Postgres's SQLSTATE class 22 ("data exception": 22021 a character the encoding refuses, 22P02 bad
 * text for a type, 22001 too long, 22007/22008 a bad date) means the input was bad, not the server;
 * so does 54000 (a value too large for an index: an index row holds at most 2,704 bytes).
 */
const isDataException = (error: unknown) => hasErrorCode(error, (code) => /^22[0-9A-Z]{3}$/.test(code) || code === "54000");

/**
 * A foreign key violation (23503) at a write means what it names was deleted between the domain's
 * check and its insert (a couple erasing their account as another blocks them): it is gone, as
 * a missing row is everywhere else.
 */
const isVanishedReference = (error: unknown) => hasErrorCode(error, (code) => code === "23503");

export const VANISHED_MESSAGE = "This is no longer available.";

/**
 * The AppError a known failure answers with, for calls and server actions alike. An unreachable
 * database is an outage to wait out (503 with Retry-After), not a bug; one that went away while
 * the request ran leaves its writes' outcome unknown (OUTCOME_UNKNOWN, never sent again by the
 * browser's transport), unlike the pool's refusal before anything was done. A data exception is the
 * caller's 400 and a vanished reference a 404; the log (redacted) still tells us which check let
 * it through.
 */
export function asKnownError(error: unknown): unknown {
  if (error instanceof z.ZodError) return validationError(error);
  if (isDatabaseUnavailable(error)) return databaseInterrupted();
  if (isDataException(error)) {
    logUnexpected("data exception", randomUUID(), error);
    return new AppError("VALIDATION_ERROR", "Please check that all information is filled out correctly.");
  }
  if (isVanishedReference(error)) {
    logUnexpected("vanished reference", randomUUID(), error);
    return new AppError("NOT_FOUND", VANISHED_MESSAGE);
  }
  return error;
}

/** Turns anything thrown into `{error: {code, message}}` with its status; never a stack trace. */
export function errorResponse(error: unknown): NextResponse<ErrorBody> {
  const appError = asKnownError(error);
  if (appError instanceof AppError) {
    const { retryAfterSeconds, fieldErrors: fields, body } = appError.extra;
    const headers = retryAfterSeconds ? { "Retry-After": String(retryAfterSeconds) } : undefined;
    return NextResponse.json(
      { ...body, error: { code: appError.code, message: appError.message, ...(fields ? { fields } : {}) } },
      { status: appError.status, headers },
    );
  }
  const requestId = randomUUID();
  logUnexpected("api", requestId, error);
  return NextResponse.json(
    { error: { code: "INTERNAL_ERROR", message: `Something went wrong on our side. Please try again. (request ${requestId})` } },
    { status: 500 },
  );
}

/**
 * `application/json` (or a `+json` type), the only body type a page of another site cannot send
 * without the browser asking first (a CORS preflight, which this app never answers): a
 * `text/plain` or typeless body from anywhere else, a form's included, never reaches a handler.
 */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads a JSON body of at most `maxBytes` (413 past it, counted as it arrives); anything that is
 * not UTF-8 text of a JSON object sent as JSON (`JSON_TYPE`) is a 400, not a crash.
 */
export async function readJson(request: Request, maxBytes = JSON_BODY_BYTES): Promise<Record<string, unknown>> {
  const text = decodeUtf8(await readBoundedBody(request, maxBytes));
  if (!text.trim()) return {};
  const type = request.headers.get("content-type") ?? "";
  if (type.length > 200 || !JSON_TYPE.test(type))
    throw new AppError("VALIDATION_ERROR", "The request body must be sent as JSON (Content-Type: application/json).");
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new AppError("VALIDATION_ERROR", "The request body must be a JSON object.");
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    // fatal: broken UTF-8 is refused, not silently turned into U+FFFD.
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("VALIDATION_ERROR", "The request body must be UTF-8 text.");
  }
}

/** "coupleData.bio" -> "Bio", "first_name" -> "First name": a field's name as its message says it. */
function fieldLabel(path: string): string {
  const words = (
    path
      .split(".")
      .filter((part) => !/^\d+$/.test(part))
      .pop() || "value"
  )
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}

/**
 * Where a value (objects and arrays to any depth) holds text no field may hold, by field path.
 * A queue, not recursion: a deeply nested body must not overflow the stack; fields in body order.
 * Queued one at a time, never spread: a list of a few hundred thousand entries (a server action's
 * 1 MB body holds one) would pass a spread call more arguments than the stack holds.
 */
function unsafeTextFields(value: unknown): Record<string, string> {
  const found: Record<string, string> = {};
  const pending: [unknown, string][] = [[value, ""]];
  for (let index = 0; index < pending.length; index++) {
    const [item, path] = pending[index]!;
    if (typeof item === "string" && UNSAFE_TEXT.test(item)) found[path || "_"] ??= notAllowedMessage(fieldLabel(path));
    else if (item && typeof item === "object")
      for (const [key, child] of Object.entries(item)) pending.push([child, path ? `${path}.${key}` : key]);
  }
  return found;
}

/**
 * The last check on any input, after its schema: NUL, other control characters than tab and line
 * breaks, and lone surrogates are refused in every field, even one whose schema forgot them
 * (Postgres answers NUL with an error, and a lone surrogate cannot be stored as UTF-8).
 */
export function refuseUnsafeText(value: unknown): void {
  const fields = unsafeTextFields(value);
  const [first] = Object.values(fields);
  if (first) throw new AppError("VALIDATION_ERROR", first, { fieldErrors: fields });
}

/**
 * Parses with a domain schema, turning failures into the spec's VALIDATION_ERROR. The message is
 * the one given, or with `firstIssue` the first failing rule (schemas list keys in the spec's
 * check order); every field's message goes along. A schema's own message for a bad character
 * wins; refuseUnsafeText catches what no schema named.
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, message?: string | { firstIssue: true }): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw validationError(parsed.error, typeof message === "string" ? message : message && parsed.error.issues[0]?.message);
  refuseUnsafeText(value);
  return parsed.data;
}
