import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { seedDemo } from "@/lib/demo/seed";

describe("the demo seed", () => {
  it("leaves its couples changed when they completed their profile, not at the seed's instant (so no list scores them all again)", async () => {
    const db = await getDb();
    await seedDemo(db);
    const [row] = await db.execute<{ couples: number; recent: number }>(
      sql`select count(*)::int as couples, count(*) filter (where match_changed_at > now() - interval '1 hour')::int as recent from couples`,
    );
    expect(row!.couples).toBeGreaterThan(40);
    expect(row!.recent).toBe(0);
  }, 120_000);
});
