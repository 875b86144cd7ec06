"use client";

/**
 * A settings form's checks (the server's zod schemas) loaded on its first submit, so the page's
 * first paint ships no zod. Null when they cannot load: the form is then sent unchecked and the
 * server, which parses with the same schemas, answers with the same messages.
 */
export function loadChecks<M>(load: () => Promise<M>): Promise<M | null> {
  return load().catch(() => null);
}
