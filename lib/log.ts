/**
 * What the server log may hold of an error: its class, its code and a message stripped of
 * request values, plus where it was thrown. Never SQL parameters, the query, a Postgres
 * `detail` ("Key (email)=(...)"), a body or a header. Used by our own error logs, and by
 * `installLogRedaction` for everything else handed to console.error (Next's logging of thrown
 * errors included).
 */

const MAX_MESSAGE = 300;
const STACK_FRAMES = 6;

type Described = { name: string; code?: string; message: string; digest?: string; stack?: string };

/** Drizzle wraps a failed query as "Failed query: <sql>\nparams: <values>" around the driver's error: the cause is what failed. */
function unwrapQueryError(error: Error): Error {
  return error.message.startsWith("Failed query:") && error.cause instanceof Error ? error.cause : error;
}

/**
 * Messages quote values in double quotes (Postgres: 'invalid input syntax for type uuid: "..."',
 * JSON.parse: '"abc" is not valid JSON'); names of constraints and columns are quoted the same
 * way, which costs little. Drizzle's "params:" tail goes whole.
 */
function redactMessage(message: string): string {
  const text = message
    .split(/\n[^\S\n]*params:/)[0]!
    .trimEnd()
    .replace(/"[^"]*"/g, '"…"');
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
}

export function describeError(thrown: unknown): Described {
  if (!(thrown instanceof Error)) return { name: typeof thrown, message: "(not an Error)" };
  const error = unwrapQueryError(thrown);
  const { code, digest } = error as { code?: unknown; digest?: unknown };
  const frames = error.stack
    ?.split("\n")
    .filter((line) => line.trimStart().startsWith("at "))
    .slice(0, STACK_FRAMES);
  return {
    name: error.constructor?.name || error.name,
    ...(typeof code === "string" || typeof code === "number" ? { code: String(code) } : {}),
    message: redactMessage(error.message),
    ...(typeof digest === "string" ? { digest } : {}),
    ...(frames?.length ? { stack: frames.map((line) => line.trim()).join(" | ") } : {}),
  };
}

/** One line for an unexpected error, named by the request id the caller was answered with. */
export function logUnexpected(context: string, requestId: string, error: unknown): void {
  console.error(`[${context}] unexpected error (request ${requestId})`, describeError(error));
}

const INSTALLED = Symbol.for("two-of-us.log-redaction");

/**
 * Makes console.error and console.warn log every Error argument as `describeError` does. Next
 * logs errors thrown by pages and server actions itself; this is the one place that sees them.
 */
export function installLogRedaction(): void {
  const target = console as unknown as Record<symbol, boolean>;
  if (target[INSTALLED]) return;
  target[INSTALLED] = true;
  for (const level of ["error", "warn"] as const) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) => original(...args.map((arg) => (arg instanceof Error ? describeError(arg) : arg)));
  }
}
