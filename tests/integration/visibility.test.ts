import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { coupleBlocks, couples } from "@/db/schema";
import { notBlockedBetween } from "@/lib/safety/blocks";
import { seenByOther, seenByViewer, standing, standings, viewerOf, type Looker } from "@/lib/safety/visibility";
import { createUser } from "../support/api";
import { forumCouple, type TestCouple } from "../support/forum";

/** The viewer, and one couple in each state the rule tells apart. */
async function cast() {
  const db = await getDb();
  const [us, seen, hidden, suspended, blockedByUs, blockingUs] = await Promise.all(Array.from({ length: 6 }, () => forumCouple()));
  await db.update(couples).set({ isVisible: false }).where(eq(couples.id, hidden!.coupleId));
  await db.update(couples).set({ status: "suspended" }).where(eq(couples.id, suspended!.coupleId));
  await db.insert(coupleBlocks).values([
    { blockerCoupleId: us!.coupleId, blockedCoupleId: blockedByUs!.coupleId, createdByUserId: us!.a.userId },
    { blockerCoupleId: blockingUs!.coupleId, blockedCoupleId: us!.coupleId, createdByUserId: blockingUs!.a.userId },
  ]);
  const all = { us, seen, hidden, suspended, blockedByUs, blockingUs } as Record<string, TestCouple>;
  return { us: us!, all, ids: Object.values(all).map((c) => c.coupleId) };
}

/** Which of `ids` the SQL fragment lets through for the viewer given as `viewerCouple`. */
async function selected(looker: Looker, ids: string[]): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ id: couples.id })
    .from(couples)
    .where(and(inArray(couples.id, ids), seenByOther(looker)));
  return rows.map((row) => row.id).sort();
}

describe("who may see a couple (lib/safety/visibility.ts)", () => {
  it("lets another couple see only a discoverable couple no block stands between, never its own", async () => {
    const { us, all, ids } = await cast();
    expect(await selected({ coupleId: us.coupleId }, ids)).toEqual([all.seen!.coupleId]);
    // The viewer given as a person, their couple found within the statement, reads the same.
    expect(await selected({ userId: us.a.userId }, ids)).toEqual([all.seen!.coupleId]);
  });

  it("answers the same in SQL, in the one query and in the pure rule", async () => {
    const { us, all, ids } = await cast();
    const found = await standings(await getDb(), { coupleId: us.coupleId }, ids);
    const others = [...found].filter(([, s]) => s.viewer === "other").map(([id]) => id);
    expect(others.sort()).toEqual(await selected({ coupleId: us.coupleId }, ids));
    expect(found.get(us.coupleId)!.viewer).toBe("own");
    for (const name of ["hidden", "suspended", "blockedByUs", "blockingUs"]) expect(found.get(all[name]!.coupleId)!.viewer).toBeNull();
    expect(viewerOf({ status: "active", isVisible: true, own: false, blockedEitherWay: false })).toBe("other");
  });

  it("answers the same in the form for reads that left blocked couples out: own or discoverable", async () => {
    const { us, all, ids } = await cast();
    const db = await getDb();
    const rows = await db
      .select({ id: couples.id, seen: seenByViewer(us.coupleId) })
      .from(couples)
      .where(and(inArray(couples.id, ids), notBlockedBetween(us.coupleId, couples.id)));
    const found = await standings(db, { coupleId: us.coupleId }, ids);
    expect(rows.map((row) => row.id).sort()).toEqual(
      [us.coupleId, all.seen!.coupleId, all.hidden!.coupleId, all.suspended!.coupleId].sort(),
    );
    for (const row of rows) expect(row.seen).toBe(found.get(row.id)!.viewer !== null);
  });

  it("tells which way a block stands (a connection request refuses the two differently)", async () => {
    const { us, all } = await cast();
    const db = await getDb();
    expect(await standing(db, { coupleId: us.coupleId }, all.blockedByUs!.coupleId)).toEqual({
      viewer: null,
      blockedByViewer: true,
      blocksViewer: false,
    });
    expect(await standing(db, { coupleId: us.coupleId }, all.blockingUs!.coupleId)).toEqual({
      viewer: null,
      blockedByViewer: false,
      blocksViewer: true,
    });
    expect(await standing(db, { userId: us.b.userId }, all.seen!.coupleId)).toEqual({
      viewer: "other",
      blockedByViewer: false,
      blocksViewer: false,
    });
    expect(await standing(db, { coupleId: us.coupleId }, "00000000-0000-4000-8000-000000000000")).toBeNull();
  });

  it("lets a person without a couple see every discoverable couple, as they block nobody", async () => {
    const { all, ids } = await cast();
    const loner = await createUser({ firstName: "Solo" });
    const expected = ["us", "seen", "blockedByUs", "blockingUs"].map((name) => all[name]!.coupleId).sort();
    expect(await selected({ coupleId: null }, ids)).toEqual(expected);
    expect(await selected({ userId: loner.id }, ids)).toEqual(expected);
    const found = await standings(await getDb(), { userId: loner.id }, ids);
    expect(ids.filter((id) => found.get(id)!.viewer === "other").sort()).toEqual(expected);
  });
});
