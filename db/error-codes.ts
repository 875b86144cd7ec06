/**
 * The codes an error carries, its own first, then its causes': Drizzle wraps the driver's error
 * ("Failed query"), so Postgres's SQLSTATE (or postgres.js's connection code) may sit a cause or
 * two down. Bounded: a cause chain is never walked past five links.
 */
export function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  for (let current = error, depth = 0; current !== null && typeof current === "object" && depth < 5; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === "string") codes.push(code);
    current = cause;
  }
  return codes;
}

/** Whether the error, or what caused it, carries a code `matches` accepts. */
export const hasErrorCode = (error: unknown, matches: (code: string) => boolean): boolean => errorCodes(error).some(matches);
