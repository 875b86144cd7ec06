/**
 * The one error type the domain throws. `code` is stable (the spec's codes), `message` is the
 * user-facing text; adapters turn it into JSON `{error: {code, message}}` or a form error.
 */
export type ErrorCode =
  | "VALIDATION_ERROR"
  | "EMAIL_EXISTS"
  | "RATE_LIMITED"
  | "INVALID_CREDENTIALS"
  | "INVALID_PASSWORD"
  | "EMAIL_NOT_CONFIRMED"
  | "ACCOUNT_LOCKED"
  | "ALREADY_VERIFIED"
  | "PASSWORD_REQUIRED"
  | "USER_NOT_FOUND"
  | "INVALID_TOKEN"
  | "TOKEN_EXPIRED"
  | "SESSION_EXPIRED"
  | "UNAUTHENTICATED"
  | "CSRF_VALIDATION_FAILED"
  | "PROFILE_INCOMPLETE"
  | "NOT_FOUND"
  | "FORBIDDEN"
  | "PLACES_SERVICE_FAILED"
  | "INVALID_LOCATION_DATA"
  | "COUPLE_EXISTS"
  | "NO_COUPLE"
  | "INVALID_INVITATION"
  | "INVITATION_EXPIRED"
  | "INVITATION_ALREADY_SENT"
  | "COUPLE_FULL"
  | "PAYLOAD_TOO_LARGE"
  | "REQUEST_TIMEOUT"
  | "ALREADY_REPORTED"
  | "BLOCKED"
  | "LOCATION_REQUIRED"
  | "DUPLICATE_CONTENT"
  | "PAID_EVENTS_NOT_ALLOWED"
  | "ALREADY_REQUESTED"
  | "ALREADY_CONNECTED"
  | "CONVERSATION_ENDED"
  | "ACCOUNT_RESTRICTED"
  | "ACCOUNT_SUSPENDED"
  | "PLAN_CLOSED"
  | "TOO_MANY_PLANS"
  | "PLAN_CHANGED"
  | "VERIFICATION_STATE"
  | "SERVICE_UNAVAILABLE"
  | "OUTCOME_UNKNOWN"
  | "NOT_DELIVERABLE"
  | "INTERNAL_ERROR";

const STATUS: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  EMAIL_EXISTS: 409,
  RATE_LIMITED: 429,
  INVALID_CREDENTIALS: 401,
  INVALID_PASSWORD: 403,
  EMAIL_NOT_CONFIRMED: 403,
  ACCOUNT_LOCKED: 429,
  ALREADY_VERIFIED: 400,
  PASSWORD_REQUIRED: 400,
  USER_NOT_FOUND: 404,
  INVALID_TOKEN: 400,
  TOKEN_EXPIRED: 401,
  SESSION_EXPIRED: 401,
  UNAUTHENTICATED: 401,
  CSRF_VALIDATION_FAILED: 403,
  PROFILE_INCOMPLETE: 409,
  NOT_FOUND: 404,
  FORBIDDEN: 403,
  PLACES_SERVICE_FAILED: 502,
  INVALID_LOCATION_DATA: 400,
  COUPLE_EXISTS: 409,
  NO_COUPLE: 404,
  INVALID_INVITATION: 400,
  INVITATION_EXPIRED: 410,
  INVITATION_ALREADY_SENT: 409,
  COUPLE_FULL: 409,
  PAYLOAD_TOO_LARGE: 413,
  REQUEST_TIMEOUT: 408,
  ALREADY_REPORTED: 409,
  BLOCKED: 403,
  LOCATION_REQUIRED: 409,
  DUPLICATE_CONTENT: 409,
  PAID_EVENTS_NOT_ALLOWED: 403,
  ALREADY_REQUESTED: 409,
  ALREADY_CONNECTED: 409,
  CONVERSATION_ENDED: 403,
  ACCOUNT_RESTRICTED: 403,
  ACCOUNT_SUSPENDED: 403,
  PLAN_CLOSED: 409,
  TOO_MANY_PLANS: 409,
  PLAN_CHANGED: 409,
  VERIFICATION_STATE: 409,
  // Both 503 with Retry-After. SERVICE_UNAVAILABLE: refused before anything was done (the database
  // known to be down, a sign-in's password slots full, a schema behind the build), so the same call
  // may be sent again as it is. OUTCOME_UNKNOWN: the database went away while the call ran (a
  // connection reset, during a COMMIT too), so what it wrote may have been saved: a client never
  // sends a write again on it by itself (lib/transport/client.ts).
  SERVICE_UNAVAILABLE: 503,
  OUTCOME_UNKNOWN: 503,
  NOT_DELIVERABLE: 409,
  INTERNAL_ERROR: 500,
};

export type AppErrorExtra = {
  /** Seconds until a rate-limited call may be tried again (becomes the Retry-After header). */
  retryAfterSeconds?: number;
  /** Per-field messages for forms. */
  fieldErrors?: Record<string, string>;
  /** Extra top-level JSON fields the spec's clients read (e.g. attemptsRemaining). */
  body?: Record<string, unknown>;
};

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: AppErrorExtra = {},
  ) {
    super(message);
    this.name = "AppError";
    this.status = STATUS[code];
  }
}

/** The signed-in account is gone (spec section 8's text for a missing user). */
export const userNotFound = () => new AppError("USER_NOT_FOUND", "User not found. Please try registering again.");
