/**
 * The rows of a raw `db.execute`: postgres.js answers an array of rows, PGlite an object holding
 * them. One reading for both, so no caller guesses.
 */
export function resultRows<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}
