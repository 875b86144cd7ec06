import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type Db, getDb } from "@/db/client";
import { rateLimitHits } from "@/db/schema";
import { type Limit, checkLimit, clearHits, consumeLimit, recordHit } from "@/lib/rate-limit";
import { ageRateLimitHits } from "../support/flows";

let counter = 0;
/** A limit of its own per test, so tests never share hits. */
const limit = (max: number, windowSeconds = 60): Limit => ({ bucket: `test-${++counter}`, limit: max, windowSeconds });

describe("consumeLimit", () => {
  it("allows exactly the limit when 20 calls arrive at once", async () => {
    const db = await getDb();
    const five = limit(5);
    const results = await Promise.all(Array.from({ length: 20 }, () => consumeLimit(db, five, "alice")));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect(results.filter((r) => !r.allowed).every((r) => r.remaining === 0 && r.retryAfterSeconds > 0)).toBe(true);
    expect(await countHits(db, five, "alice")).toBe(5);
  });

  it("counts down remaining and then refuses with Retry-After up to the window", async () => {
    const db = await getDb();
    const three = limit(3, 600);
    const states = [];
    for (let i = 0; i < 4; i++) states.push(await consumeLimit(db, three, "bob"));
    expect(states.map((s) => [s.allowed, s.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(states[3]!.retryAfterSeconds).toBeGreaterThan(590);
    expect(states[3]!.retryAfterSeconds).toBeLessThanOrEqual(600);
  });

  it("does not count refused calls", async () => {
    const db = await getDb();
    const two = limit(2);
    for (let i = 0; i < 6; i++) await consumeLimit(db, two, "carol");
    expect(await countHits(db, two, "carol")).toBe(2);
  });

  it("allows again once the window has passed", async () => {
    const db = await getDb();
    const two = limit(2, 60);
    await consumeLimit(db, two, "dave");
    await consumeLimit(db, two, "dave");
    expect((await consumeLimit(db, two, "dave")).allowed).toBe(false);
    await ageRateLimitHits("dave", 61, two.bucket);
    const again = await consumeLimit(db, two, "dave");
    expect(again).toEqual({ allowed: true, remaining: 1, retryAfterSeconds: 0 });
  });

  it("frees one slot when only the oldest hit leaves the window, and says when the next one frees", async () => {
    const db = await getDb();
    const two = limit(2, 60);
    await consumeLimit(db, two, "erin");
    await ageRateLimitHits("erin", 50, two.bucket);
    await consumeLimit(db, two, "erin");
    const refused = await consumeLimit(db, two, "erin");
    expect(refused.allowed).toBe(false);
    // The oldest hit is 50 s old: it leaves the window in about 10 s.
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(9);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(11);
    await ageRateLimitHits("erin", 11, two.bucket);
    expect((await consumeLimit(db, two, "erin")).allowed).toBe(true);
    expect((await consumeLimit(db, two, "erin")).allowed).toBe(false);
  });

  it("keeps subjects and buckets apart", async () => {
    const db = await getDb();
    const one = limit(1);
    const other = limit(1);
    expect((await consumeLimit(db, one, "frank")).allowed).toBe(true);
    expect((await consumeLimit(db, one, "frank")).allowed).toBe(false);
    expect((await consumeLimit(db, one, "grace")).allowed).toBe(true);
    expect((await consumeLimit(db, other, "frank")).allowed).toBe(true);
  });
});

describe("checkLimit, recordHit and clearHits", () => {
  it("checks without using a slot", async () => {
    const db = await getDb();
    const one = limit(1);
    for (let i = 0; i < 3; i++) expect(await checkLimit(db, one, "heidi")).toEqual({ allowed: true, remaining: 1, retryAfterSeconds: 0 });
    await recordHit(db, one, "heidi");
    expect((await checkLimit(db, one, "heidi")).allowed).toBe(false);
  });

  it("prunes the subject's hits older than the window when recording", async () => {
    const db = await getDb();
    const two = limit(2, 60);
    await recordHit(db, two, "ivan");
    await ageRateLimitHits("ivan", 120, two.bucket);
    await recordHit(db, two, "ivan");
    const rows = await db
      .select()
      .from(rateLimitHits)
      .where(and(eq(rateLimitHits.bucket, two.bucket), eq(rateLimitHits.subject, "ivan")));
    expect(rows).toHaveLength(1);
  });

  it("clears a subject's hits in one bucket only", async () => {
    const db = await getDb();
    const one = limit(1);
    const other = limit(1);
    await recordHit(db, one, "judy");
    await recordHit(db, other, "judy");
    await clearHits(db, one, "judy");
    expect((await checkLimit(db, one, "judy")).allowed).toBe(true);
    expect((await checkLimit(db, other, "judy")).allowed).toBe(false);
  });
});

async function countHits(db: Db, limit: Limit, subject: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(rateLimitHits)
    .where(and(eq(rateLimitHits.bucket, limit.bucket), eq(rateLimitHits.subject, subject)));
  return row?.n ?? 0;
}
