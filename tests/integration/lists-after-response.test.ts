import { eq, inArray, sql } from "drizzle-orm";
import type postgres from "postgres";
import { describe, expect, it, vi } from "vitest";
import { GET as directoryRoute } from "@/app/api/directory/route";
import { GET as discoverRoute } from "@/app/api/discover/route";
import { getDb } from "@/db/client";
import { couples, directoryCommonRanks, discoverSummaries, users } from "@/db/schema";
import { SEARCH_WINDOW, SUMMARY_TTL_MS } from "@/lib/discover/queries";
import { DISCOVER_LIMIT } from "@/lib/discover/rules";
import { call } from "../support/api";
import { bulkCouples } from "../support/bulk-couples";
import { forumCouple, type Headers } from "../support/forum";
import { waitsOn } from "../support/lock-race";
import { onPostgres } from "../support/test-database";

// As in a request: what runs after the response waits here until the test runs it.
const deferred = vi.hoisted(() => [] as (() => Promise<unknown>)[]);
vi.mock("@/lib/http/after-response", () => ({
  afterResponse: (task: () => Promise<unknown>) => {
    deferred.push(task);
    return true;
  },
}));
const runDeferred = async () => {
  for (const task of deferred.splice(0)) await task();
};

const discover = (h: Headers) => call(discoverRoute, "GET", "/api/discover", { headers: h });
const suggestedIds = (res: { json: { data: { coupleId: string }[] } }) => res.json.data.map((card) => card.coupleId);

/** Their match inputs changed two days ago: before any list of this file was computed. */
async function changedLongAgo(ids: string[]) {
  const db = await getDb();
  await db
    .update(couples)
    .set({ matchChangedAt: sql`now() - interval '2 days'` })
    .where(inArray(couples.id, ids));
}

async function viewerWith(interests: string[]) {
  const us = await forumCouple();
  const db = await getDb();
  await db.update(users).set({ interests }).where(eq(users.id, us.a.userId));
  await db.update(couples).set({ interests, coupleTypes: [] }).where(eq(couples.id, us.coupleId));
  return us;
}

const storedList = async (coupleId: string) => {
  const db = await getDb();
  const [row] = await db.select().from(discoverSummaries).where(eq(discoverSummaries.coupleId, coupleId));
  return row;
};

describe("no request ranks the whole network for a list that only aged", () => {
  it("a first read searches among the couples changed last; the network is searched after the response", async () => {
    const mine = ["cycling", "yoga", "photography", "languages"];
    const us = await viewerWith(mine);
    // The best matches changed long ago; more couples sharing one interest than the window changed since.
    const best = await bulkCouples("fffffff", 5, mine);
    await changedLongAgo(best);
    await bulkCouples("0000000", SEARCH_WINDOW, ["cycling"]);

    const first = await discover(us.a.headers);
    expect(first.status).toBe(200);
    expect(suggestedIds(first)).toHaveLength(DISCOVER_LIMIT);
    expect(suggestedIds(first).filter((id) => best.includes(id))).toEqual([]);
    expect(deferred.length).toBeGreaterThan(0);

    await runDeferred();
    expect((await storedList(us.coupleId))!.candidateIds.slice(0, 5).sort()).toEqual(best);
    const next = await discover(us.a.headers);
    expect(suggestedIds(next).slice(0, 5).sort()).toEqual(best);
  });

  it("a day-old list is served as stored and searched again after the response", async () => {
    const mine = ["sailing", "skiing", "theatre"];
    const us = await viewerWith(mine);
    const [first] = await bulkCouples("aaaaaaa", 1, ["sailing"]);
    await discover(us.a.headers);
    await runDeferred();
    const db = await getDb();
    const aged = new Date(Date.now() - SUMMARY_TTL_MS - 1000);
    await db.update(discoverSummaries).set({ computedAt: aged }).where(eq(discoverSummaries.coupleId, us.coupleId));
    // A better match the stored list cannot know of: it changed before the list was computed.
    const [better] = await bulkCouples("bbbbbbb", 1, mine);
    await changedLongAgo([better!]);

    const served = await discover(us.a.headers);
    expect(served.status).toBe(200);
    expect(suggestedIds(served)).toContain(first);
    expect(suggestedIds(served)).not.toContain(better);
    expect((await storedList(us.coupleId))!.computedAt).toEqual(aged);
    expect(deferred.length).toBeGreaterThan(0);

    await runDeferred();
    expect((await storedList(us.coupleId))!.computedAt.getTime()).toBeGreaterThan(aged.getTime());
    expect(suggestedIds(await discover(us.a.headers))[0]).toBe(better);
  });

  it("the directory's 'most in common' answers from a day-old kept ranking and ranks again after the response", async () => {
    const mine = ["gardening", "film", "dance"];
    const us = await viewerWith(mine);
    const [sharing] = await bulkCouples("ccccccc", 1, mine);
    const page = () => call(directoryRoute, "GET", "/api/directory?sort=common", { headers: us.a.headers });
    expect((await page()).json.data[0].coupleId).toBe(sharing);
    const db = await getDb();
    const kept = async () => (await db.select().from(directoryCommonRanks).where(eq(directoryCommonRanks.coupleId, us.coupleId)))[0]!;
    const aged = new Date(Date.now() - 2 * SUMMARY_TTL_MS);
    await db.update(directoryCommonRanks).set({ computedAt: aged }).where(eq(directoryCommonRanks.coupleId, us.coupleId));
    deferred.splice(0);

    const served = await page();
    expect(served.status).toBe(200);
    expect(served.json.data[0].coupleId).toBe(sharing);
    expect((await kept()).computedAt).toEqual(aged);
    expect(deferred.length).toBe(1);
    await runDeferred();
    expect((await kept()).computedAt.getTime()).toBeGreaterThan(aged.getTime());
  });
});

describe.skipIf(!onPostgres())("many reads of an aged list search again once", () => {
  const heldKey = (key: string) => (tx: postgres.ReservedSql) => tx`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`;

  it("discover's search after a response is skipped while another is under way for the couple, and runs once none is", async () => {
    const us = await viewerWith(["chess", "poetry"]);
    await discover(us.a.headers);
    await runDeferred();
    const db = await getDb();
    const aged = new Date(Date.now() - SUMMARY_TTL_MS - 1000);
    await db.update(discoverSummaries).set({ computedAt: aged }).where(eq(discoverSummaries.coupleId, us.coupleId));
    await discover(us.a.headers);

    const { waited } = await waitsOn(heldKey(`discover-search:${us.coupleId}`), runDeferred);
    expect(waited).toBe(false);
    expect((await storedList(us.coupleId))!.computedAt).toEqual(aged);

    await discover(us.b.headers);
    await runDeferred();
    expect((await storedList(us.coupleId))!.computedAt.getTime()).toBeGreaterThan(aged.getTime());
  });

  it("the directory's aged ranking is ranked again once however many read it", async () => {
    const us = await viewerWith(["knitting", "opera"]);
    await bulkCouples("ddddddd", 1, ["knitting"]);
    const page = () => call(directoryRoute, "GET", "/api/directory?sort=common", { headers: us.a.headers });
    await page();
    const db = await getDb();
    const kept = async () => (await db.select().from(directoryCommonRanks).where(eq(directoryCommonRanks.coupleId, us.coupleId)))[0]!;
    const aged = new Date(Date.now() - 2 * SUMMARY_TTL_MS);
    await db.update(directoryCommonRanks).set({ computedAt: aged }).where(eq(directoryCommonRanks.coupleId, us.coupleId));
    deferred.splice(0);
    await page();

    const { waited } = await waitsOn(heldKey(`directory-common:${us.coupleId}`), runDeferred);
    expect(waited).toBe(false);
    expect((await kept()).computedAt).toEqual(aged);

    await page();
    await runDeferred();
    expect((await kept()).computedAt.getTime()).toBeGreaterThan(aged.getTime());
  });
});
