import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DELETE as deleteAccountRoute } from "@/app/api/account/route";
import { GET as directoryRoute } from "@/app/api/directory/route";
import { DELETE as removeLocationRoute } from "@/app/api/locations/[entityType]/[entityId]/route";
import { POST as normalizeRoute } from "@/app/api/locations/normalize/route";
import { PUT as privacyRoute } from "@/app/api/locations/privacy/route";
import { getDb } from "@/db/client";
import { resultRows } from "@/db/result-rows";
import { coupleBlocks, locations } from "@/db/schema";
import { unitVector } from "@/lib/directory/nearest";
import { ownCentre } from "@/lib/locations/privacy";
import { PASSWORD, call } from "../support/api";
import { forumCouple, LISBON, PORTO, SINTRA, type Headers, type Place, type TestCouple } from "../support/forum";

/**
 * The nearest sort through crowds at one shown point (one point per city from either place
 * provider): its walk goes from point to point (couple_shown_points) and reads each point's couples
 * by id, and must list exactly what the plain order lists. This file's database holds only its own couples.
 */

type Page = { data: { coupleId: string; distanceBand: string | null }[]; pagination: { nextCursor: string | null } };

const list = (qs: string, headers: Headers) => call(directoryRoute, "GET", `/api/directory${qs}`, { headers });

/** Every page of a query, through 'Load more' (the cursor of each page), as couple ids. */
async function pagedThrough(qs: string, headers: Headers): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await list(`${qs}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, headers);
    expect(res.status).toBe(200);
    const page = res.json as Page;
    seen.push(...page.data.map((card) => card.coupleId));
    cursor = page.pagination.nextCursor;
  } while (cursor && seen.length < 500);
  return seen;
}

/**
 * The order the nearest sort defines, computed plainly: the couples the viewer may see with a
 * shown point by (chord from the viewer's own place, id), then those without one by id.
 */
async function plainOrder(viewer: TestCouple, place: Place, withinChord?: number): Promise<string[]> {
  const db = await getDb();
  const centre = ownCentre(place.level ?? "city", place.lat, place.lng);
  const [x, y, z] = unitVector(centre!);
  const chord = sql`(shown_point(l.privacy_level, l.latitude, l.longitude) <-> cube(array[${x}, ${y}, ${z}]::float8[]))`;
  const rows = resultRows<{ id: string }>(
    await db.execute(sql`select c.id from couples c
      left join locations l on l.entity_type = 'couple' and l.entity_id = c.id
      where c.id <> ${viewer.coupleId} and c.status = 'active' and c.is_visible
        and not exists (select 1 from couple_blocks b where (b.blocker_couple_id = ${viewer.coupleId} and b.blocked_couple_id = c.id)
          or (b.blocked_couple_id = ${viewer.coupleId} and b.blocker_couple_id = c.id))
        ${withinChord === undefined ? sql`` : sql`and ${chord} <= ${withinChord}::float8`}
      order by ${chord} asc nulls last, c.id`),
  );
  return rows.map((row) => row.id);
}

/** couple_shown_points against a recount of every couple's place: the same points, the same counts. */
async function shownPointsInStep(): Promise<void> {
  const db = await getDb();
  const kept = resultRows<{ point: string; couples: number }>(
    await db.execute(sql`select point::text as point, couples from couple_shown_points order by point`),
  );
  const counted = resultRows<{ point: string; couples: number }>(
    await db.execute(sql`select point::text as point, count(*)::int as couples from (
      select shown_point(privacy_level, latitude, longitude) as point from locations where entity_type = 'couple') shown
      where point is not null group by shown.point order by shown.point`),
  );
  expect(kept).toEqual(counted);
  expect(kept.every((row) => row.couples > 0)).toBe(true);
}

/** `n` couples placed straight in the database, each at `place` nudged by less than its level snaps. */
async function crowd(n: number, place: Place): Promise<TestCouple[]> {
  const made: TestCouple[] = [];
  for (let i = 0; i < n; i++)
    made.push(await forumCouple({ name: `Crowd ${place.city} ${i}`, place: { ...place, lat: place.lat + (i % 3) * 0.001 } }));
  return made;
}

describe("the directory's nearest sort through crowds at one shown point", () => {
  let me: TestCouple;
  const FAR_PLACE: Place = { lat: 48.8566, lng: 2.3522, city: "Paris", country: "France" };

  beforeAll(async () => {
    me = await forumCouple({ name: "Viewer", place: LISBON });
    const db = await getDb();
    // Crowds at Sintra and Porto (city level, one point each), a couple at the viewer's own
    // point, one at Sintra's exact place (full level: a point of its own), a region-level one.
    const sintra = await crowd(14, SINTRA);
    await crowd(9, PORTO);
    await crowd(3, LISBON);
    await forumCouple({ name: "Exact Sintra", place: { ...SINTRA, level: "full" } });
    await forumCouple({ name: "Region Sintra", place: { ...SINTRA, level: "region" } });
    await forumCouple({ name: "Paris", place: FAR_PLACE });
    // Never listed: hidden from the directory, hidden place (listed without a shown point), blocked either way.
    await forumCouple({ name: "Invisible Sintra", place: SINTRA, visible: false });
    await forumCouple({ name: "Hidden place", place: { ...SINTRA, level: "hidden" } });
    await forumCouple({ name: "Country place", place: { ...SINTRA, level: "country" } });
    await forumCouple({ name: "No place" });
    await db.insert(coupleBlocks).values({ blockerCoupleId: me.coupleId, blockedCoupleId: sintra[3]!.coupleId });
    await db.insert(coupleBlocks).values({ blockerCoupleId: sintra[7]!.coupleId, blockedCoupleId: me.coupleId });
  });

  it("pages through a crowd with 'Load more' giving every couple once, in the plain order, at any distance and within one", async () => {
    const all = await plainOrder(me, LISBON);
    expect(all.length).toBe(14 - 2 + 9 + 3 + 3 + 2 + 1);
    for (const limit of [1, 4, 7]) expect(await pagedThrough(`?sort=nearest&limit=${limit}`, me.a.headers)).toEqual(all);

    const near = await pagedThrough(`?sort=nearest&distance=50&limit=4`, me.a.headers);
    expect(near).toEqual(await plainOrder(me, LISBON, 2 * Math.sin(50 / (2 * 6371.0088))));
    expect(near.length).toBe(14 - 2 + 3 + 2);
    // The first page is the viewer's own point, then Sintra's crowd by id.
    const first = (await list(`?sort=nearest&limit=4`, me.a.headers)).json as Page;
    expect(first.data.map((card) => card.coupleId)).toEqual(all.slice(0, 4));
  });

  it("keeps couple_shown_points in step through every write of a couple's place: moves, privacy, deletions", async () => {
    await shownPointsInStep();
    const mover = await forumCouple({ name: "Mover", place: PORTO });
    await shownPointsInStep();
    const couple = { entity_type: "couple", entity_id: mover.coupleId };
    // Moves (a place chosen again), each level, a deleted place, a new one, then its partners' accounts.
    expect(
      (
        await call(normalizeRoute, "POST", "/api/locations/normalize", {
          body: { ...couple, place_id: "geonames:2267057" },
          headers: mover.a.headers,
        })
      ).status,
    ).toBe(200);
    await shownPointsInStep();
    for (const level of ["full", "region", "country", "hidden", "city"]) {
      const res = await call(privacyRoute, "PUT", "/api/locations/privacy", {
        body: { ...couple, privacy_level: level },
        headers: mover.a.headers,
      });
      expect(res.status).toBe(200);
      await shownPointsInStep();
    }
    const params = { entityType: "couple", entityId: mover.coupleId };
    expect(
      (await call(removeLocationRoute, "DELETE", `/api/locations/couple/${mover.coupleId}`, { headers: mover.a.headers, params })).status,
    ).toBeLessThan(300);
    await shownPointsInStep();
    const db = await getDb();
    await db.insert(locations).values({
      entityType: "couple",
      entityId: mover.coupleId,
      placeId: "test:Sintra",
      displayLocation: "Sintra",
      latitude: SINTRA.lat,
      longitude: SINTRA.lng,
    });
    await shownPointsInStep();
    // A moved crowd: a statement moving many places at once keeps each point's count.
    await db.execute(sql`update locations set latitude = ${FAR_PLACE.lat}, longitude = ${FAR_PLACE.lng}
      where entity_type = 'couple' and entity_id in (select id from couples where couple_name like 'Crowd Porto %')`);
    await shownPointsInStep();
    for (const partner of [mover.a, mover.b]) {
      const res = await call(deleteAccountRoute, "DELETE", "/api/account", { body: { password: PASSWORD }, headers: partner.headers });
      expect(res.status).toBeLessThan(300);
    }
    expect(resultRows(await db.execute(sql`select 1 from couples where id = ${mover.coupleId}`))).toHaveLength(0);
    await shownPointsInStep();
    // And the list still reads the plain order after them.
    expect(await pagedThrough(`?sort=nearest&limit=5`, me.a.headers)).toEqual(await plainOrder(me, LISBON));
  });
});
