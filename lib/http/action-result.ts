import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { logUnexpected } from "@/lib/log";
import { asKnownError, fieldErrors } from "./errors";

/** What a server action hands back to its form: never a thrown error, never the submitted password. */
export type ActionFailure = {
  ok: false;
  code: string;
  message: string;
  fieldErrors?: Record<string, string>;
  retryAfterSeconds?: number;
  attemptsRemaining?: number;
};
export type ActionResult<T = object> = ({ ok: true } & T) | ActionFailure;

export function actionFailure(thrown: unknown, fallback = "An unexpected error occurred. Please try again."): ActionFailure {
  if (thrown instanceof z.ZodError) {
    return {
      ok: false,
      code: "VALIDATION_ERROR",
      message: "Please fill in all required fields correctly.",
      fieldErrors: fieldErrors(thrown),
    };
  }
  const error = asKnownError(thrown);
  if (error instanceof AppError) {
    const attempts = error.extra.body?.attemptsRemaining;
    return {
      ok: false,
      code: error.code,
      message: error.message,
      ...(error.extra.fieldErrors ? { fieldErrors: error.extra.fieldErrors } : {}),
      ...(error.extra.retryAfterSeconds ? { retryAfterSeconds: error.extra.retryAfterSeconds } : {}),
      ...(typeof attempts === "number" ? { attemptsRemaining: attempts } : {}),
    };
  }
  const requestId = randomUUID();
  logUnexpected("action", requestId, error);
  return { ok: false, code: "INTERNAL_ERROR", message: fallback };
}
