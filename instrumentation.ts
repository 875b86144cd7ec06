/**
 * Applies pending migrations when a server instance starts, before it answers requests. First,
 * every error logged is redacted (lib/log), Next's own logging of thrown errors included.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    (await import("./lib/log")).installLogRedaction();
    const { getDb } = await import("./db/client");
    await getDb();
  }
}
