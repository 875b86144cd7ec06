import "server-only";
import { randomUUID } from "node:crypto";
import { NextResponse } from "next/server";
import { z } from "zod";
import { databaseUnavailable, isDatabaseUnavailable } from "@/db/supervised-pool";
import { AppError } from "@/lib/errors";
import { logUnexpected } from "@/lib/log";
import { readBoundedBody } from "./body";

/** A JSON call carries names and ids, never files: 1 MB is ample. */
const MAX_JSON_BYTES = 1024 * 1024;

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

/** Turns anything thrown into `{error: {code, message}}` with its status; never a stack trace. */
export function errorResponse(error: unknown): NextResponse<ErrorBody> {
  // An unreachable database is an outage to wait out (503 with Retry-After), not a bug.
  const appError = error instanceof z.ZodError ? validationError(error) : isDatabaseUnavailable(error) ? databaseUnavailable() : error;
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

/** Reads a JSON body; anything that is not a JSON object is a 400, not a crash. */
export async function readJson(request: Request): Promise<Record<string, unknown>> {
  const text = new TextDecoder().decode(await readBoundedBody(request, MAX_JSON_BYTES));
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new AppError("VALIDATION_ERROR", "The request body must be a JSON object.");
}

/**
 * Parses with a domain schema, turning failures into the spec's VALIDATION_ERROR. The message is
 * the one given, or with `firstIssue` the first failing rule (schemas list keys in the spec's
 * check order); every field's message goes along.
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, message?: string | { firstIssue: true }): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, typeof message === "string" ? message : message && parsed.error.issues[0]?.message);
  return parsed.data;
}
