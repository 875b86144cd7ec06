import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getDb, openDatabase } from "@/db/client";
import { users } from "@/db/schema";
import { DEMO_COUPLES, demoEmail } from "@/lib/demo/data";
import { seedPreviewOnce } from "@/lib/demo/preview";
import { adminQuery, databaseUrl, onPostgres } from "../support/test-database";

describe("a preview's first start", () => {
  it("seeds the demo once on an empty database, whichever instance starts first", async () => {
    const db = await getDb();
    // Two instances starting together: one seeds under the migration lock, the other finds accounts.
    const outcomes = await Promise.all([seedPreviewOnce(), seedPreviewOnce()]);
    expect(outcomes.sort()).toEqual(["had-accounts", "seeded"]);
    const marisol = demoEmail(DEMO_COUPLES[0]!.partnerA.firstName);
    expect(await db.select({ id: users.id }).from(users).where(eq(users.email, marisol))).toHaveLength(1);
    // Later starts leave it alone.
    expect(await seedPreviewOnce()).toBe("had-accounts");
  }, 120_000);
});

describe.skipIf(!onPostgres())("serverless mode (SERVERLESS=1)", () => {
  it("never migrates at start: an unmigrated database is refused with 503 until the release step ran", async () => {
    const name = `serverless_${randomBytes(4).toString("hex")}`;
    await adminQuery((sql) => sql.unsafe(`create database ${name}`));
    const url = databaseUrl(name);
    vi.stubEnv("SERVERLESS", "1");
    vi.stubEnv("DATABASE_URL", url);
    vi.resetModules(); // lib/env reads the environment once
    const client = await import("@/db/client");
    await client.closeDb(); // the process-wide handle lives on globalThis: start as a fresh instance would
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await expect(client.getDb()).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
      expect(String(logged.mock.calls[0]?.[0])).toMatch(/run `npm run db:migrate` as the release step/);
      // Nothing was migrated by trying.
      expect(await postgresTables(url)).toEqual([]);
      // The release step: `npm run db:migrate` (the same migrator); then the instance serves.
      const release = await openDatabase(url);
      await release.migrate();
      await release.close();
      await expect(client.getDb()).resolves.toBeDefined();
    } finally {
      logged.mockRestore();
      await client.closeDb();
      vi.unstubAllEnvs();
      vi.resetModules();
      await adminQuery((sql) => sql.unsafe(`drop database if exists ${name} with (force)`));
    }
  });
});

/** The tables of the public schema of the database at `url`. */
async function postgresTables(url: string): Promise<string[]> {
  const { default: postgres } = await import("postgres");
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return (await sql`select tablename from pg_tables where schemaname = 'public'`).map((row) => String(row.tablename));
  } finally {
    await sql.end({ timeout: 5 });
  }
}
