/** Applies pending migrations when a server instance starts, before it answers requests. */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { getDb } = await import("./db/client");
    await getDb();
  }
}
