import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { resultRows } from "@/db/result-rows";
import { coupleBlocks, discoverDismissals } from "@/db/schema";
import { CANDIDATES_NEARBY, candidateQueries } from "@/lib/discover/queries";
import { unitVector } from "@/lib/directory/nearest";
import { ownCentre } from "@/lib/locations/privacy";
import { forumCouple, LISBON, PORTO, SINTRA, type Place, type TestCouple } from "../support/forum";

/**
 * Discover's nearest candidates through a crowd at one shown point (one point per city from
 * either place provider): the directory's walk over distinct points, each point's couples by id,
 * so the candidates are the plain order's first CANDIDATES_NEARBY whatever the crowd's size. A file
 * of its own: the crowd's couples would count as changed since any other test's stored list.
 */

/** `count` discoverable one-partner couples at `place` (city level, nudged by less than it snaps), ids md5-scattered. */
async function bulkCrowd(tag: string, count: number, place: Place): Promise<void> {
  const db = await getDb();
  const user = sql`md5(${`u-${tag}-`} || g)::uuid`;
  const couple = sql`md5(${`c-${tag}-`} || g)::uuid`;
  await db.execute(sql`insert into users (id, email, password_hash, first_name, last_name, date_of_birth, email_verified_at)
    select ${user}, ${tag} || g || '@crowd.test', 'x', 'Crowd', 'Last', date '1990-01-01', now() from generate_series(1, ${count}) g`);
  await db.execute(sql`insert into couples (id, partner1_id, couple_name, status, is_visible)
    select ${couple}, ${user}, 'Crowd ' || g, 'active', true from generate_series(1, ${count}) g`);
  await db.execute(sql`insert into locations (entity_type, entity_id, place_id, display_location, latitude, longitude, city, country, privacy_level)
    select 'couple', ${couple}, 'test:crowd', 'Crowd ' || g, ${place.lat} + (g % 3) * 0.001, ${place.lng}, ${place.city}, ${place.country}, 'city'
    from generate_series(1, ${count}) g`);
}

/**
 * The nearest order computed plainly: the couples the viewer may see (discoverable, not their own,
 * not blocked either way, not dismissed) with a shown point, by (chord from the viewer's own place, id).
 */
async function plainNearest(viewer: TestCouple, limit: number): Promise<string[]> {
  const db = await getDb();
  const [x, y, z] = unitVector(ownCentre("city", LISBON.lat, LISBON.lng)!);
  const chord = sql`(shown_point(l.privacy_level, l.latitude, l.longitude) <-> cube(array[${x}, ${y}, ${z}]::float8[]))`;
  const rows = resultRows<{ id: string }>(
    await db.execute(sql`select c.id from couples c
      join locations l on l.entity_type = 'couple' and l.entity_id = c.id
      where c.id <> ${viewer.coupleId} and c.status = 'active' and c.is_visible
        and shown_point(l.privacy_level, l.latitude, l.longitude) is not null
        and not exists (select 1 from couple_blocks b where (b.blocker_couple_id = ${viewer.coupleId} and b.blocked_couple_id = c.id)
          or (b.blocked_couple_id = ${viewer.coupleId} and b.blocker_couple_id = c.id))
        and not exists (select 1 from discover_dismissals d where d.couple_id = ${viewer.coupleId} and d.dismissed_couple_id = c.id and d.hidden_until > now())
      order by ${chord}, c.id limit ${limit}`),
  );
  return rows.map((row) => row.id);
}

async function nearestCandidates(viewer: TestCouple): Promise<string[]> {
  const { byPlace } = await candidateQueries(await getDb(), viewer.a.userId);
  return (await byPlace!).map((row) => row.id);
}

describe("discover's nearest candidates through a crowd at one shown point", () => {
  let me: TestCouple;
  let atMyPoint: string[];

  beforeAll(async () => {
    me = await forumCouple({ name: "Viewer", place: LISBON });
    atMyPoint = [];
    for (let i = 0; i < 3; i++) atMyPoint.push((await forumCouple({ name: `Lisbon ${i}`, place: LISBON })).coupleId);
    await bulkCrowd("sintra", 2 * CANDIDATES_NEARBY, SINTRA);
    await bulkCrowd("porto", 20, PORTO);
    // The crowd's couples with the lowest ids, which the walk reaches first: blocked either way, dismissed.
    const db = await getDb();
    const [first, second, third] = (await plainNearest(me, 3 + 3)).slice(3);
    await db.insert(coupleBlocks).values({ blockerCoupleId: me.coupleId, blockedCoupleId: first! });
    await db.insert(coupleBlocks).values({ blockerCoupleId: second!, blockedCoupleId: me.coupleId });
    await db
      .insert(discoverDismissals)
      .values({ coupleId: me.coupleId, dismissedCoupleId: third!, hiddenUntil: new Date(Date.now() + 86_400_000) });
  });

  it("takes the nearest couples in the plain (distance, id) order: the viewer's own point, then the crowd's lowest ids", async () => {
    const candidates = await nearestCandidates(me);
    expect(candidates).toHaveLength(CANDIDATES_NEARBY);
    expect(candidates).toEqual(await plainNearest(me, CANDIDATES_NEARBY));
    expect(candidates.slice(0, 3).sort()).toEqual([...atMyPoint].sort());
  });

  it("reads no more of a crowd than it hands the scorer, however large the crowd grows", async () => {
    await bulkCrowd("sintra-more", 3 * CANDIDATES_NEARBY, SINTRA);
    expect(await nearestCandidates(me)).toEqual(await plainNearest(me, CANDIDATES_NEARBY));
    // The places the walk reads through the shown-point indexes, as the plan counts them: up to CANDIDATES_NEARBY of a point, never the crowd of 500.
    const { byPlace } = await candidateQueries(await getDb(), me.a.userId);
    const { sql: text, params } = byPlace!.toSQL();
    const db = await getDb();
    const [row] = resultRows<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
      await db.execute(sql.raw(`explain (analyze, format json) ${inline(text, params)}`)),
    );
    const read = placesWalked(row!["QUERY PLAN"][0].Plan);
    expect(read).toBeGreaterThanOrEqual(CANDIDATES_NEARBY);
    expect(read).toBeLessThanOrEqual(2 * CANDIDATES_NEARBY);
  });
});

type PlanNode = { "Index Name"?: string; "Actual Rows": number; "Actual Loops": number; Plans?: PlanNode[] };

/** Places the plan reads through the shown-point indexes of locations (a place's shown point; by id), over all loops. */
const placesWalked = (node: PlanNode): number =>
  (node["Index Name"]?.startsWith("locations_couple_shown_point") ? node["Actual Rows"] * node["Actual Loops"] : 0) +
  (node.Plans ?? []).reduce((sum, child) => sum + placesWalked(child), 0);

/** The statement with its parameters written in as literals (EXPLAIN takes no parameters). */
const inline = (text: string, params: unknown[]) =>
  text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = params[Number(n) - 1];
    return typeof value === "number" ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  });
