import { count, gt, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { couples } from "@/db/schema";
import { seedDemo } from "@/lib/demo/seed";

describe("the demo seed", () => {
  it("leaves its couples changed when they completed their profile, not at the seed's instant (so no list scores them all again)", async () => {
    const db = await getDb();
    await seedDemo(db);
    const [all] = await db.select({ n: count() }).from(couples);
    const [recent] = await db
      .select({ n: count() })
      .from(couples)
      .where(gt(couples.matchChangedAt, sql`now() - interval '1 hour'`));
    expect(all!.n).toBeGreaterThan(40);
    expect(recent!.n).toBe(0);
  }, 120_000);
});
