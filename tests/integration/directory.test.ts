import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as countRoute } from "@/app/api/directory/count/route";
import { GET as mapRoute } from "@/app/api/directory/map/route";
import { GET as directoryRoute } from "@/app/api/directory/route";
import { GET as meRoute } from "@/app/api/v2/auth/me/route";
import { getDb } from "@/db/client";
import { resultRows } from "@/db/result-rows";
import { coupleBlocks, couples, directoryCommonRanks, locations, users } from "@/db/schema";
import { COMMON_STORED } from "@/lib/directory/common";
import { unitVector } from "@/lib/directory/nearest";
import { listDirectory } from "@/lib/directory/queries";
import { directoryQuerySchema } from "@/lib/directory/schemas";
import { cursorContext, pageFilters } from "@/lib/directory/rules";
import { cursorAfter } from "@/lib/pagination/cursor";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { haversineKm } from "@/lib/locations/bands";
import { ownCentre, shownCoordinates } from "@/lib/locations/privacy";
import { call } from "../support/api";
import { recordingStatements } from "../support/query-plan";
import { onPostgres } from "../support/test-database";
import { getProfile } from "../support/couples";
import { forumCouple, LISBON, PORTO, SINTRA, type Headers, type Place, type TestCouple } from "../support/forum";

type Card = {
  coupleId: string;
  coupleName: string;
  badge: string;
  location: string | null;
  distanceBand: string | null;
  interestsInCommon: number;
};
type Page = { data: Card[]; pagination: { limit: number; nextCursor: string | null; hasMore: boolean } };

const list = (qs: string, h: Headers) => call(directoryRoute, "GET", `/api/directory${qs}`, { headers: h });
const [I0, I1, I2, I3, I4, I5] = INTEREST_VALUES as [string, string, string, string, string, string];
const FAR: Place = { lat: 48.8566, lng: 2.3522, city: "Paris", country: "France" };

let tagCounter = 0;
/** A word no other test's couple names contain: searching for it isolates a test's couples. */
const newTag = () => `Qz${++tagCounter}x${Date.now().toString(36)}`;

type Setup = {
  interests?: [string[], string[]];
  styles?: string[];
  verified?: boolean;
  place?: Place;
  visible?: boolean;
  createdAt?: Date;
};

async function couple(tag: string, label: string, setup: Setup = {}): Promise<TestCouple> {
  const made = await forumCouple({ name: `${tag} ${label}`, place: setup.place, visible: setup.visible ?? true });
  const db = await getDb();
  const [a, b] = setup.interests ?? [[], []];
  await db.update(users).set({ interests: a }).where(eq(users.id, made.a.userId));
  await db.update(users).set({ interests: b }).where(eq(users.id, made.b.userId));
  await db
    .update(couples)
    .set({
      coupleTypes: setup.styles ?? ["global_adventurers"],
      partnerAVerified: setup.verified ?? false,
      partnerBVerified: setup.verified ?? false,
      ...(setup.createdAt ? { createdAt: setup.createdAt } : {}),
    })
    .where(eq(couples.id, made.coupleId));
  return made;
}

const names = (page: Page) => page.data.map((card) => card.coupleName.split(" ").slice(1).join(" "));

describe("GET /api/directory", () => {
  it("lists discoverable couples as cards, newest first, never the viewer's own, hidden, inactive or blocked either way", async () => {
    const tag = newTag();
    const me = await couple(tag, "Me", { interests: [[I0, I1], [I2]], place: LISBON });
    const older = await couple(tag, "Older", {
      interests: [[I0], [I3]],
      place: SINTRA,
      verified: true,
      createdAt: new Date(Date.now() - 60_000),
    });
    await couple(tag, "Newer", { interests: [[I4], []], place: { ...PORTO, level: "region" } });
    await couple(tag, "Hidden", { visible: false });
    const suspended = await couple(tag, "Suspended");
    const blockedByMe = await couple(tag, "BlockedByMe");
    const blockedMe = await couple(tag, "BlockedMe");
    const db = await getDb();
    await db.update(couples).set({ status: "suspended" }).where(eq(couples.id, suspended.coupleId));
    await db.insert(coupleBlocks).values([
      { blockerCoupleId: me.coupleId, blockedCoupleId: blockedByMe.coupleId, createdByUserId: me.a.userId },
      { blockerCoupleId: blockedMe.coupleId, blockedCoupleId: me.coupleId, createdByUserId: blockedMe.a.userId },
    ]);

    const res = await list(`?q=${tag}&sort=newest`, me.a.headers);
    expect(res.status).toBe(200);
    const page = res.json as Page;
    expect(names(page)).toEqual(["Newer", "Older"]);
    expect(page.pagination).toEqual({ limit: 24, nextCursor: null, hasMore: false });
    expect(page.data[1]).toEqual({
      coupleId: older.coupleId,
      coupleName: `${tag} Older`,
      profileImageUrl: null,
      badge: "Verified Couple",
      photoBadge: null,
      location: "Sintra, Portugal",
      distanceBand: "Within 25 km",
      interestsInCommon: 1,
      connection: { state: "none" },
    });
    // Porto at region level snaps to the 1° grid (41, -9): about 250 km from Lisbon's city point.
    expect(page.data[0]).toMatchObject({ badge: "Beta Member", location: "Portugal", distanceBand: "Within 500 km", interestsInCommon: 0 });
    // Partner B sees the same directory as partner A.
    expect(names((await list(`?q=${tag}&sort=newest`, me.b.headers)).json as Page)).toEqual(["Newer", "Older"]);
  });

  it("shows no distance band when either place is hidden or country-level, a band at any distance", async () => {
    const tag = newTag();
    const me = await couple(tag, "Me", { place: LISBON });
    await couple(tag, "Paris", { place: FAR });
    await couple(tag, "Country", { place: { ...SINTRA, level: "country" } });
    await couple(tag, "Hidden", { place: { ...SINTRA, level: "hidden" } });
    await couple(tag, "Nowhere");
    const page = (await list(`?q=${tag}&sort=nearest`, me.a.headers)).json as Page;
    const byName = Object.fromEntries(page.data.map((card) => [card.coupleName.split(" ")[1], card]));
    expect(byName.Paris).toMatchObject({ distanceBand: "Within 2,500 km", location: "Paris, France" });
    expect(byName.Country).toMatchObject({ distanceBand: null, location: "Portugal" });
    expect(byName.Hidden).toMatchObject({ distanceBand: null, location: null });
    expect(byName.Nowhere).toMatchObject({ distanceBand: null, location: null });
    // Nearest: the one with a distance first, those without after.
    expect(names(page)[0]).toBe("Paris");

    const hiddenMe = await couple(tag, "HiddenMe", { place: { ...LISBON, level: "hidden" } });
    const seen = (await list(`?q=${tag}`, hiddenMe.a.headers)).json as Page;
    expect(seen.data.every((card) => card.distanceBand === null)).toBe(true);
  });

  it("measures a viewer's own distances from their own place, whatever level others see it at", async () => {
    const tag = newTag();
    await couple(tag, "Sintra", { place: SINTRA });
    const bands = async (level: Place["level"]) => {
      const me = await couple(tag, `Me${level}`, { place: { ...LISBON, level } });
      const page = (await list(`?q=${tag}%20Sintra`, me.a.headers)).json as Page;
      return page.data.map((card) => card.distanceBand);
    };
    // Lisbon's region point (39, -9) is about 40 km from Sintra's city point; Lisbon itself is 23 km away.
    expect(await bands("region")).toEqual(["Within 25 km"]);
    expect(await bands("city")).toEqual(["Within 25 km"]);
    expect(await bands("full")).toEqual(["Within 25 km"]);
    // A place that shows no point measures no distance to others either.
    expect(await bands("country")).toEqual([null]);
  });

  it("sorts nearest first by default for a viewer with a place (newest without one), every distance a band", async () => {
    const tag = newTag();
    const me = await couple(tag, "Me", { place: LISBON });
    // The newest couples are the furthest: 'Newest' would put them first.
    await couple(tag, "Sintra", { place: SINTRA, createdAt: new Date(Date.now() - 120_000) });
    await couple(tag, "Porto", { place: PORTO, createdAt: new Date(Date.now() - 60_000) });
    await couple(tag, "Paris", { place: FAR });
    const page = (await list(`?q=${tag}`, me.a.headers)).json as Page;
    expect(names(page)).toEqual(["Sintra", "Porto", "Paris"]);
    expect(page.data.map((card) => card.distanceBand)).toEqual(["Within 25 km", "Within 500 km", "Within 2,500 km"]);
    expect(names((await list(`?q=${tag}&sort=newest`, me.a.headers)).json as Page)).toEqual(["Paris", "Porto", "Sintra"]);
    const placeless = await couple(tag, "Placeless");
    expect(names((await list(`?q=${tag}`, placeless.a.headers)).json as Page)).toEqual(["Paris", "Me", "Porto", "Sintra"]);
  });

  it("finds a couple by any word of its name, a partner's first name or its place as others see it, never by more", async () => {
    const tag = newTag();
    const me = await couple(tag, "Me", { place: LISBON });
    const smiths = await couple(tag, "The Smiths", { place: { lat: 51.5074, lng: -0.1278, city: "London", country: "United Kingdom" } });
    const regional = await couple(tag, "Regional", { place: { ...PORTO, level: "region" } });
    const db = await getDb();
    await db
      .update(users)
      .set({ firstName: `Perpetua${tag}` })
      .where(eq(users.id, smiths.a.userId));
    await db.update(locations).set({ state: "Norte" }).where(eq(locations.entityId, regional.coupleId));
    const search = async (q: string) => {
      const res = await list(`?q=${encodeURIComponent(q)}&sort=newest`, me.a.headers);
      expect(res.status, q).toBe(200);
      return (res.json as Page).data.map((card) => card.coupleId);
    };
    // A partner's first name, in any case, alone or with a word of the city.
    expect(await search(`perpetua${tag}`)).toEqual([smiths.coupleId]);
    expect(await search(`Perpetua${tag} london`)).toEqual([smiths.coupleId]);
    expect(await search(`Perpetua${tag} Lisbon`)).toEqual([]);
    // Any word of the couple name, and the city of a place shown at city level.
    expect(await search(`${tag} smiths`)).toEqual([smiths.coupleId]);
    expect((await search("London")).includes(smiths.coupleId)).toBe(true);
    // A region-level place is found by its region, never by the city it hides; a hidden one by nothing.
    expect(await search(`${tag} Norte`)).toEqual([regional.coupleId]);
    expect(await search(`${tag} Porto`)).toEqual([]);
    await db.update(locations).set({ privacyLevel: "hidden" }).where(eq(locations.entityId, smiths.coupleId));
    expect(await search(`${tag} London`)).toEqual([]);
    // A partner who renames themselves, or leaves, is found by their name no more.
    await db.update(users).set({ firstName: "Rosa" }).where(eq(users.id, smiths.a.userId));
    expect(await search(`perpetua${tag}`)).toEqual([]);
    await db.update(couples).set({ partner2Id: null }).where(eq(couples.id, smiths.coupleId));
    expect(await search(`${tag} ${smiths.b.firstName}`)).toEqual([]);
    expect(await search(`${tag} Rosa`)).toEqual([smiths.coupleId]);
  });

  it("counts what the filters match for the filter sheet, and puts the same couples on the map at their shown points", async () => {
    const tag = newTag();
    const me = await couple(tag, "Me", { place: LISBON });
    await couple(tag, "Sintra", { place: SINTRA, verified: true });
    await couple(tag, "Exact", { place: { ...SINTRA, lat: 38.8, lng: -9.35, level: "full" } });
    await couple(tag, "Regional", { place: { ...PORTO, level: "region" } });
    await couple(tag, "Hidden place", { place: { ...SINTRA, level: "hidden" } });
    await couple(tag, "Not shown", { place: SINTRA, visible: false });
    const count = async (qs: string) => {
      const res = await call(countRoute, "GET", `/api/directory/count?q=${tag}${qs}`, { headers: me.a.headers });
      expect(res.status, qs).toBe(200);
      return res.json.data;
    };
    expect(await count("")).toEqual({ count: 4, more: false });
    expect(await count("&verified=1")).toEqual({ count: 1, more: false });
    expect(await count("&distance=25")).toEqual({ count: 2, more: false });
    expect((await call(countRoute, "GET", "/api/directory/count?distance=30", { headers: me.a.headers })).status).toBe(400);

    const res = await call(mapRoute, "GET", `/api/directory/map?q=${tag}`, { headers: me.a.headers });
    expect(res.status).toBe(200);
    const points = Object.fromEntries(
      (res.json.data as (Card & { point: { lat: number; lng: number } })[]).map((card) => [
        card.coupleName.split(" ").slice(1).join(" "),
        card.point,
      ]),
    );
    // Nearest first; the hidden place is in the list but not on the map; each point as its privacy level shows it.
    expect(Object.keys(points)).toEqual(["Exact", "Sintra", "Regional"]);
    expect(points.Sintra).toEqual(shownCoordinates("city", SINTRA.lat, SINTRA.lng));
    expect(points.Exact).toEqual({ lat: 38.8, lng: -9.35 });
    expect(points.Regional).toEqual({ lat: 41, lng: -9 });
    expect(res.json.more).toBe(false);
    // It opens on the viewer's area: their place and the couples within 100 km (Sintra), at least
    // the three nearest (Porto too), never the whole world.
    const [west, south, east, north] = res.json.area as [number, number, number, number];
    expect(west).toBeLessThan(-9.35);
    expect(east).toBeGreaterThan(-9.13);
    expect(south).toBeLessThan(38.72);
    expect(north).toBeGreaterThan(41);
    expect(east - west).toBeLessThan(3);
    const placeless = await couple(tag, "Placeless");
    expect((await call(mapRoute, "GET", `/api/directory/map?q=${tag}`, { headers: placeless.a.headers })).json.area).toBeNull();
  });

  it("filters by name, interests (any of), styles (any of), verified and distance band", async () => {
    const tag = newTag();
    const me = await couple(tag, "Me", {
      interests: [
        [I0, I1],
        [I1, I2],
      ],
      place: LISBON,
    });
    await couple(tag, "Alpha Near", { interests: [[I0], [I5]], styles: ["culture_curators"], place: SINTRA, verified: true });
    await couple(tag, "Beta Far", { interests: [[I3], [I1]], styles: ["career_climbers", "culture_curators"], place: PORTO });
    await couple(tag, "Gamma Paris", { interests: [[I4], []], styles: ["career_climbers"], place: FAR, verified: true });
    const get = async (qs: string) => {
      const res = await list(`?q=${tag}${qs}`, me.a.headers);
      expect(res.status, qs).toBe(200);
      return names(res.json as Page).sort();
    };
    expect(await get("")).toEqual(["Alpha Near", "Beta Far", "Gamma Paris"]);
    expect((await list(`?q=${tag.toLowerCase()}%20alpha`, me.a.headers)).json.data).toHaveLength(1);
    expect(await get(`&interests=${I0}`)).toEqual(["Alpha Near"]);
    expect(await get(`&interests=${I0},${I4}`)).toEqual(["Alpha Near", "Gamma Paris"]);
    expect(await get(`&styles=culture_curators`)).toEqual(["Alpha Near", "Beta Far"]);
    expect(await get(`&styles=career_climbers&verified=1`)).toEqual(["Gamma Paris"]);
    expect(await get(`&verified=1`)).toEqual(["Alpha Near", "Gamma Paris"]);
    expect(await get(`&distance=10`)).toEqual([]);
    expect(await get(`&distance=50`)).toEqual(["Alpha Near"]);
    expect(await get(`&distance=200`)).toEqual(["Alpha Near"]);
    expect(await get(`&distance=50&interests=${I3}`)).toEqual([]);
    // Most in common: Beta Far shares I1 (both partners' lists are the couple's), Alpha Near I0.
    const common = (await list(`?q=${tag}&sort=common`, me.a.headers)).json as Page;
    expect(common.data.map((card) => card.interestsInCommon)).toEqual([1, 1, 0]);
    expect(names(common)[2]).toBe("Gamma Paris");
    // A couple whose partners' lists are empty is found by its own stored list (as its profile shows it).
    const legacy = await couple(tag, "Legacy", { interests: [[], []] });
    const db = await getDb();
    await db
      .update(couples)
      .set({ interests: [I5] })
      .where(eq(couples.id, legacy.coupleId));
    expect(await get(`&interests=${I5}`)).toEqual(["Alpha Near", "Legacy"]);
    // LIKE wildcards are searched for literally.
    expect((await list(`?q=${tag}%25`, me.a.headers)).json.data).toEqual([]);
  });

  it.each([
    ["interests=not_an_interest", "interests"],
    [`interests=${"x".repeat(30)}`, "interests"],
    ["styles=couch_potatoes", "styles"],
    ["distance=30", "distance"],
    ["distance=abc", "distance"],
    ["sort=random", "sort"],
    ["verified=yes", "verified"],
    ["limit=0", "limit"],
    ["limit=51", "limit"],
    ["limit=ten", "limit"],
    [`q=${"a".repeat(101)}`, "q"],
    ["q=a%00b", "q"],
    ["cursor=forged.cursor", "cursor"],
  ])("answers %s with 400 naming %s", async (qs, field) => {
    const me = await couple(newTag(), "Me", { place: LISBON });
    const res = await list(`?${qs}`, me.a.headers);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_ERROR");
    expect(Object.keys(res.json.error.fields ?? { cursor: 1 }).map((key) => key.split(".")[0])).toContain(field);
  });

  it("answers 409 LOCATION_REQUIRED for a distance filter or the nearest sort without a location of one's own", async () => {
    const me = await couple(newTag(), "Me");
    for (const qs of ["?distance=50", "?sort=nearest"]) {
      const res = await list(qs, me.a.headers);
      expect(res.status).toBe(409);
      expect(res.json.error.code).toBe("LOCATION_REQUIRED");
    }
    expect((await list("?sort=common", me.a.headers)).status).toBe(200);
  });

  it.each(["newest", "nearest", "common"])(
    "pages by keyset under sort %s: no duplicates, no gaps, a cursor only for its own filters",
    async (sort) => {
      const tag = newTag();
      const me = await couple(tag, "Me", { interests: [[I0, I1, I2], []], place: LISBON });
      const spots = [LISBON, SINTRA, PORTO, FAR];
      const same = new Date(Date.now() - 3600_000);
      const made: string[] = [];
      for (let i = 0; i < 11; i++) {
        // Ties on purpose: same creation time, same place, same interests for several couples.
        const c = await couple(tag, `C${i}`, {
          interests: [INTEREST_VALUES.slice(0, i % 3), []],
          place: spots[i % 4],
          createdAt: i < 6 ? same : undefined,
        });
        made.push(c.coupleId);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await list(`?q=${tag}&sort=${sort}&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, me.a.headers);
        expect(res.status).toBe(200);
        const page = res.json as Page;
        seen.push(...page.data.map((card) => card.coupleId));
        cursor = page.pagination.nextCursor;
        expect(page.pagination.hasMore).toBe(cursor !== null);
        pages++;
      } while (cursor && pages < 10);
      expect(seen).toHaveLength(11);
      expect(new Set(seen)).toEqual(new Set(made));
      // The full list in one page has the same order.
      const whole = (await list(`?q=${tag}&sort=${sort}&limit=50`, me.a.headers)).json as Page;
      expect(whole.data.map((card) => card.coupleId)).toEqual(seen);

      const first = (await list(`?q=${tag}&sort=${sort}&limit=3`, me.a.headers)).json as Page;
      const foreign = await list(
        `?q=${tag}&sort=${sort}&limit=3&verified=1&cursor=${encodeURIComponent(first.pagination.nextCursor!)}`,
        me.a.headers,
      );
      expect(foreign.status).toBe(400);
    },
  );

  it("pages 'most in common' by count then id, counts as a plain recomputation gives them, those sharing none last by id", async () => {
    const tag = newTag();
    const V = INTEREST_VALUES;
    // The viewer's interests reach the catalogue's last bit: the count is a popcount of both masks.
    const mine = [V[0]!, V[5]!, V[10]!, V[20]!, V.at(-1)!];
    const me = await couple(tag, "Me", {
      interests: [
        [V[0]!, V[5]!, V[20]!],
        [V[10]!, V.at(-1)!],
      ],
    });
    const made: { id: string; interests: string[] }[] = [];
    for (let i = 0; i < 14; i++) {
      // Overlapping lists (a partner's value repeated by the other counts once), ties on purpose.
      const a = [V[(i * 5) % V.length]!, V[(i * 7 + 10) % V.length]!];
      const b = i % 3 === 0 ? [] : [V[(i * 5) % V.length]!, V[(V.length - 1 - i) % V.length]!];
      const c = await couple(tag, `C${i}`, { interests: [a, b] });
      made.push({ id: c.coupleId, interests: [...new Set([...a, ...b])] });
    }
    const inCommon = (interests: string[]) => interests.filter((value) => mine.includes(value)).length;
    const byIdDesc = (x: { id: string }, y: { id: string }) => (x.id < y.id ? 1 : x.id > y.id ? -1 : 0);
    const expected = made
      .map((c) => ({ id: c.id, interestsInCommon: inCommon(c.interests) }))
      .sort(
        (x, y) =>
          Math.sign(y.interestsInCommon) - Math.sign(x.interestsInCommon) || y.interestsInCommon - x.interestsInCommon || byIdDesc(x, y),
      );
    // The fixture has what the ranking must get right: several counts, ties, couples sharing none.
    const counts = expected.map((card) => card.interestsInCommon);
    expect(new Set(counts).size).toBeGreaterThanOrEqual(3);
    expect(counts).toContain(0);
    expect(counts.length - new Set(counts).size).toBeGreaterThanOrEqual(4);

    const seen: { id: string; interestsInCommon: number }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(`?q=${tag}&sort=common&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, me.a.headers);
      expect(res.status).toBe(200);
      const page = res.json as Page;
      seen.push(...page.data.map(({ coupleId, interestsInCommon }) => ({ id: coupleId, interestsInCommon })));
      cursor = page.pagination.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(4);
    expect(seen).toEqual(expected);
  });

  it("gives every catalogue interest a bit of its own in interest_mask (a new interest needs its bit: migration 0011)", async () => {
    const db = await getDb();
    const rows = await db
      .select({ value: sql<string>`v`, mask: sql<string>`public.interest_mask(array[v])::text` })
      .from(sql`unnest(${sql.param(INTEREST_VALUES)}::text[]) as v`);
    const masks = rows.map((row) => BigInt(row.mask));
    expect(rows.map((row) => row.value)).toEqual(INTEREST_VALUES);
    for (const mask of masks) expect(mask > 0n && (mask & (mask - 1n)) === 0n).toBe(true);
    expect(new Set(masks).size).toBe(INTEREST_VALUES.length);
  });

  it("goes on from where a nearest page ended when its last couple moves away or hides its place: no couple skipped", async () => {
    const tag = newTag();
    const me = await couple(tag, "Me", { place: LISBON });
    const sintra = await couple(tag, "Sintra", { place: { ...SINTRA, level: "full" } });
    await couple(tag, "Porto", { place: { ...PORTO, level: "full" } });
    const db = await getDb();
    const page = async (cursor?: string) =>
      (await list(`?q=${tag}&sort=nearest&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, me.a.headers)).json as Page;

    const first = await page();
    expect(names(first)).toEqual(["Sintra"]);
    // Sintra moves to Paris before 'Load more': Porto, nearer than Paris, still comes next.
    const whereSintra = and(eq(locations.entityType, "couple"), eq(locations.entityId, sintra.coupleId));
    await db.update(locations).set({ latitude: FAR.lat, longitude: FAR.lng }).where(whereSintra);
    expect(names(await page(first.pagination.nextCursor!))).toEqual(["Porto"]);
    // Hidden instead: the list goes on at Porto, then the couples without a shown place.
    await db.update(locations).set({ latitude: SINTRA.lat, longitude: SINTRA.lng, privacyLevel: "hidden" }).where(whereSintra);
    const next = await page(first.pagination.nextCursor!);
    expect(names(next)).toEqual(["Porto"]);
    expect(names(await page(next.pagination.nextCursor!))).toEqual(["Sintra"]);
  });

  it("seals its cursors: a nearest cursor holds no distance from the viewer's place, and only a sealed one is read", async () => {
    const tag = newTag();
    const me = await couple(tag, "Me", { place: LISBON });
    await couple(tag, "Sintra", { place: { ...SINTRA, level: "full" } });
    await couple(tag, "Porto", { place: { ...PORTO, level: "full" } });
    const first = (await list(`?q=${tag}&sort=nearest&limit=1`, me.a.headers)).json as Page;
    expect(names(first)).toEqual(["Sintra"]);
    const cursor = first.pagination.nextCursor!;
    // The chord from Me's own place to Sintra's exact one, as the nearest order measures it: a card
    // shows 'within 25 km'; the figure, read from several places, would locate the couple.
    const [x1, y1, z1] = unitVector({ lat: LISBON.lat, lng: LISBON.lng });
    const [x2, y2, z2] = unitVector({ lat: SINTRA.lat, lng: SINTRA.lng });
    const chord = Math.hypot(x1 - x2, y1 - y2, z1 - z2);
    const readable = cursor
      .split(".")
      .map((part) => Buffer.from(part, "base64url").toString("latin1"))
      .join(" ");
    expect(readable).not.toContain(chord.toPrecision(6).slice(0, 7));
    expect(readable).not.toMatch(/\["n",/);
    // Still where the list goes on; and a signed cursor of the same position is refused.
    expect(names((await list(`?q=${tag}&sort=nearest&limit=1&cursor=${encodeURIComponent(cursor)}`, me.a.headers)).json as Page)).toEqual([
      "Porto",
    ]);
    const lastId = first.data[0]!.coupleId;
    const signed = cursorAfter(cursorContext(pageFilters({ q: tag, sort: "nearest" }, true), me.coupleId), { sortKey: chord, id: lastId });
    const refused = await list(`?q=${tag}&sort=nearest&limit=1&cursor=${encodeURIComponent(signed)}`, me.a.headers);
    expect(refused.status).toBe(400);
  });

  it("continues a list for the couple it was read for only: another couple's cursor, for the same filters, is refused", async () => {
    const tag = newTag();
    const me = await couple(tag, "Me", { place: LISBON });
    const other = await couple(tag, "Other", { place: PORTO });
    await couple(tag, "Sintra", { place: SINTRA });
    await couple(tag, "Paris", { place: FAR });
    const first = (await list(`?q=${tag}&sort=nearest&limit=1`, me.a.headers)).json as Page;
    const more = `?q=${tag}&sort=nearest&limit=1&cursor=${encodeURIComponent(first.pagination.nextCursor!)}`;
    // Its key is the distance from the couple's own place: their partner goes on with it...
    expect((await list(more, me.b.headers)).status).toBe(200);
    // ...while another couple, placing its own place here and there, would read from the pages it
    // continues where that place is.
    const foreign = await list(more, other.a.headers);
    expect(foreign.status).toBe(400);
    expect(foreign.json.error.message).toBe("This page link has expired. Please reload the list.");
  });

  it.skipIf(!onPostgres())("reads a card's place as a card shows it, under every sort: never the place id or the row's times", async () => {
    const tag = newTag();
    const me = await couple(tag, "Me", { interests: [[I0], []], place: LISBON });
    await couple(tag, "Sintra", { interests: [[I0], []], place: SINTRA });
    await couple(tag, "Nowhere", { interests: [[I0], []] });
    const { logging, logged } = recordingStatements(await getDb());
    for (const sort of ["nearest", "newest", "common"] as const) {
      const page = await listDirectory(logging, me.a.userId, directoryQuerySchema.parse({ q: tag, sort }));
      expect(page.data.map((card) => card.location).sort()).toEqual(["Sintra, Portugal", null]);
    }
    const cardReads = logged.filter((one) => one.query.includes('"couples"."couple_name"'));
    expect(cardReads.length).toBeGreaterThanOrEqual(3);
    for (const read of cardReads) expect(read.query).not.toMatch(/"locations"\."(place_id|created_at|updated_at)"/);
  });

  it("never carries another couple's last name, e-mail, date of birth or coordinates", async () => {
    const tag = newTag();
    const me = await couple(tag, "Me", { interests: [[I0], [I1]], place: LISBON });
    const other = await couple(tag, "Other", { interests: [[I0, I1], [I1]], place: SINTRA });
    const db = await getDb();
    await db.update(users).set({ lastName: "Zyxwvutsrq", dateOfBirth: "1987-03-29" }).where(eq(users.id, other.a.userId));
    const [person] = await db.select({ email: users.email }).from(users).where(eq(users.id, other.a.userId));
    const [place] = await db.select().from(locations).where(eq(locations.entityId, other.coupleId));
    const texts = [
      JSON.stringify((await list(`?q=${tag}`, me.a.headers)).json),
      JSON.stringify((await getProfile(other.coupleId, me.a.headers)).json),
    ];
    for (const text of texts) {
      expect(text).toContain("Other");
      for (const secret of [
        "Zyxwvutsrq",
        person!.email,
        "1987-03-29",
        "1987",
        String(place!.latitude),
        String(place!.longitude),
        "Rua Exacta",
        "lastName",
        "email",
        "dateOfBirth",
        "latitude",
        "longitude",
      ]) {
        expect(text, secret).not.toContain(secret);
      }
    }
  });

  it("pages nearest within a distance through couples sharing one snapped point: by id within the tie, none beyond the radius", async () => {
    const tag = newTag();
    const me = await couple(tag, "Me", { place: LISBON });
    const same: string[] = [];
    // City level snaps these five to one point: a tie of five across pages of two.
    for (let i = 0; i < 5; i++) same.push((await couple(tag, `Same${i}`, { place: { ...SINTRA, lat: SINTRA.lat + i * 0.0001 } })).coupleId);
    const porto = await couple(tag, "Porto", { place: PORTO });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (
        await list(`?q=${tag}&sort=nearest&distance=50&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, me.a.headers)
      ).json as Page;
      expect(page.data.every((card) => card.distanceBand === "Within 25 km")).toBe(true);
      seen.push(...page.data.map((card) => card.coupleId));
      cursor = page.pagination.nextCursor;
    } while (cursor && seen.length < 20);
    expect(seen).toEqual([...same].sort());
    // Without the radius Porto (about 270 km) follows them.
    const all = (await list(`?q=${tag}&sort=nearest`, me.a.headers)).json as Page;
    expect(all.data.map((card) => card.coupleId)).toEqual([...[...same].sort(), porto.coupleId]);
  });

  it("lists a search alike whether its matches are ordered whole or walked: each sort, ties by id, the unseen never", async () => {
    const tag = newTag();
    // The viewer's own couple matches the search too, and is never listed.
    const me = await couple(tag, "Bulk Me", { place: LISBON });
    // More matches than a page orders as they are when a word is checked row by row
    // (lib/directory/queries.ts fewMatches), at five
    // snapped points (ties), three without a shown point; five also match a second word.
    const spots = [SINTRA, PORTO, FAR, { ...LISBON, lat: 39.4 }, { ...PORTO, lat: 40.2, lng: -7.9 }];
    const total = 117;
    const db = await getDb();
    const key = (part: string) => sql`md5(${tag} || ${part} || g)::uuid`;
    await db.execute(sql`insert into users (id, email, password_hash, first_name, last_name, date_of_birth, email_verified_at)
      select ${key("u")}, ${tag} || g || '@example.test', 'x', 'Bulk', 'Last', date '1990-01-01', now() from generate_series(1, ${total}) g`);
    await db.execute(sql`insert into couples (id, partner1_id, couple_name, couple_types, status, is_visible)
      select ${key("c")}, ${key("u")}, ${tag} || ' Bulk' || g || (case when g % 20 = 0 then ' Few' else '' end),
        array['global_adventurers'], 'active', true from generate_series(1, ${total}) g`);
    await db.execute(sql`insert into locations (entity_type, entity_id, place_id, display_location, latitude, longitude, city, country, privacy_level)
      select 'couple', ${key("c")}, 'test:' || g, 'Somewhere', (${sql.param(spots.map((spot) => spot.lat))}::float8[])[1 + g % 5],
        (${sql.param(spots.map((spot) => spot.lng))}::float8[])[1 + g % 5], 'Somewhere', 'Portugal',
        (case when g <= 3 then 'hidden' else 'city' end)::privacy_level from generate_series(1, ${total}) g`);
    const rows = resultRows<{ id: string; user: string; g: number }>(
      await db.execute(sql`select ${key("c")} as id, ${key("u")} as user, g from generate_series(1, ${total}) g`),
    );
    const bulk = (g: number) => rows.find((row) => row.g === g)!;
    // Never listed: a hidden couple, a suspended one, one the viewer blocked, one that blocked the viewer.
    const unseen = new Set([5, 6, 7, 8, 40].map((g) => bulk(g).id));
    await db
      .update(couples)
      .set({ isVisible: false })
      .where(eq(couples.id, bulk(5).id));
    await db
      .update(couples)
      .set({ status: "suspended" })
      .where(eq(couples.id, bulk(6).id));
    await db.insert(coupleBlocks).values([
      { blockerCoupleId: me.coupleId, blockedCoupleId: bulk(7).id, createdByUserId: me.a.userId },
      { blockerCoupleId: bulk(8).id, blockedCoupleId: me.coupleId, createdByUserId: bulk(8).user },
      { blockerCoupleId: bulk(40).id, blockedCoupleId: me.coupleId, createdByUserId: bulk(40).user },
    ]);
    // What each list must be: shown points' distances from the viewer's own centre, ties by id, the hidden places last by id.
    const centre = ownCentre("city", LISBON.lat, LISBON.lng)!;
    const km = ({ g }: { g: number }) => {
      const spot = spots[g % 5]!;
      return g <= 3 ? Infinity : haversineKm(centre, shownCoordinates("city", spot.lat, spot.lng)!);
    };
    const listed = rows.filter((row) => !unseen.has(row.id));
    const nearest = [...listed].sort((x, y) => km(x) - km(y) || (x.id < y.id ? -1 : 1) || 0);
    // Newest first: one statement made them all at once, so by id, the greatest first; 'most in
    // common' with no interests on either side lists them all by id, the greatest first, too.
    const newest = listed.map((row) => row.id).sort((x, y) => (x < y ? 1 : -1));
    const everyPage = async (q: string, qs: string) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await list(
          `?q=${encodeURIComponent(q)}${qs}&limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
          me.a.headers,
        );
        expect(res.status).toBe(200);
        const page = res.json as Page;
        seen.push(...page.data.map((card) => card.coupleId));
        cursor = page.pagination.nextCursor;
      } while (cursor && seen.length < 500);
      return seen;
    };
    const few = (ids: string[]) => ids.filter((id) => rows.find((row) => row.id === id)!.g % 20 === 0);
    const ids = (list: { id: string }[]) => list.map((row) => row.id);
    for (const [qs, order] of [
      ["&sort=nearest", ids(nearest)],
      ["&sort=nearest&distance=100", ids(nearest.filter((row) => km(row) <= 100))],
      ["&sort=newest", newest],
      ["&sort=common", newest],
    ] as const) {
      // Ordered whole (every word narrowed by the trigram index), then walked ('bu' is checked row by row, so fewer are ordered whole).
      expect(await everyPage(`${tag} Bulk`, qs), qs).toEqual(order);
      expect(await everyPage(`${tag} bu`, qs), qs).toEqual(order);
      expect(await everyPage(`${tag} Few`, qs), qs).toEqual(few([...order]));
    }
  });

  it("measures from the same shown point in SQL as lib/locations/privacy.ts computes", async () => {
    const db = await getDb();
    for (const level of ["full", "city", "region"] as const) {
      for (const [lat, lng] of [
        [38.716674, -9.133335],
        [-33.875, 151.205],
        [0.005, -0.005],
        [64.5, 179.996],
      ] as const) {
        const shown = shownCoordinates(level, lat, lng)!;
        const [x, y, z] = unitVector(shown);
        const [row] = resultRows<{ gap: number }>(
          await db.execute(
            sql`select shown_point(${level}::privacy_level, ${lat}::float8, ${lng}::float8) <-> cube(array[${x}, ${y}, ${z}]::float8[]) as gap`,
          ),
        );
        expect(Number(row!.gap)).toBeLessThan(1e-12);
      }
    }
    const [none] = resultRows(await db.execute(sql`select shown_point('hidden', 1, 2) as hidden, shown_point('country', 1, 2) as country`));
    expect(none).toEqual({ hidden: null, country: null });
  });

  it("keeps each couple's interests current for the filter and the count: a partner's change, a partner leaving", async () => {
    const tag = newTag();
    const me = await couple(tag, "Me", { interests: [[I0, I1], []] });
    const other = await couple(tag, "Other", { interests: [[I2], [I3]] });
    const match = async (qs: string) => ((await list(`?q=${tag}${qs}`, me.a.headers)).json as Page).data;
    expect(await match(`&interests=${I0}`)).toEqual([]);
    const db = await getDb();
    await db
      .update(users)
      .set({ interests: [I0, I2] })
      .where(eq(users.id, other.b.userId));
    expect((await match(`&interests=${I0}`)).map((card) => [card.coupleId, card.interestsInCommon])).toEqual([[other.coupleId, 1]]);
    // Partner B leaves: only partner A's interests count.
    await db.update(couples).set({ partner2Id: null }).where(eq(couples.id, other.coupleId));
    expect(await match(`&interests=${I0}`)).toEqual([]);
    expect((await match(`&interests=${I2}`)).map((card) => card.coupleId)).toEqual([other.coupleId]);
    // Neither partner lists any: the couple's own list stands in.
    await db.update(users).set({ interests: [] }).where(eq(users.id, other.a.userId));
    await db
      .update(couples)
      .set({ interests: [I1, I4] })
      .where(eq(couples.id, other.coupleId));
    expect((await match(`&interests=${I4}`)).map((card) => [card.coupleId, card.interestsInCommon])).toEqual([[other.coupleId, 1]]);
  });

  it("finds a name by any part of it (the trigram index), escaping % and _", async () => {
    const tag = newTag();
    const me = await couple(tag, "Me");
    await couple(tag, "Marigold");
    await couple(tag, "50%_off");
    expect(names((await list(`?q=${encodeURIComponent(`${tag} Mari`)}`, me.a.headers)).json as Page)).toEqual(["Marigold"]);
    expect(names((await list(`?q=${encodeURIComponent("igol")}`, me.a.headers)).json as Page)).toContain("Marigold");
    expect(names((await list(`?q=${encodeURIComponent(`${tag} 50%_`)}`, me.a.headers)).json as Page)).toEqual(["50%_off"]);
    // A literal %, not a wildcard: "{tag}%off" is in no name.
    expect(names((await list(`?q=${encodeURIComponent(`${tag}%off`)}`, me.a.headers)).json as Page)).toEqual([]);
  });
});

describe("'most in common' from the viewer's kept ranking (lib/directory/common.ts)", () => {
  it("pages the whole network as a plain recomputation ranks it, through the kept couples and past them, with the couples changed since", async () => {
    const tag = newTag();
    const V = INTEREST_VALUES;
    const me = await couple(tag, "Rank Me", {
      interests: [
        [V[0]!, V[1]!, V[2]!],
        [V[3]!, V[4]!],
      ],
    });
    // More couples sharing an interest than a ranking keeps, at every count from 0 to 5, many tied.
    const total = COMMON_STORED + 100;
    // g % 6 of the viewer's five, which of them turning with g, and one other interest.
    const interestsOf = (g: number) => [...Array.from({ length: g % 6 }, (_, k) => V[(g + k) % 5]!), V[5 + (g % 5)]!];
    const db = await getDb();
    const key = (part: string) => sql`md5(${tag} || ${part} || g)::uuid`;
    const lists = Array.from({ length: total }, (_, i) => interestsOf(i + 1).join(","));
    await db.execute(sql`insert into users (id, email, password_hash, first_name, last_name, date_of_birth, email_verified_at, interests)
      select ${key("u")}, ${tag} || g || '@example.test', 'x', 'Rank', 'Last', date '1990-01-01', now(),
        string_to_array((${sql.param(lists)}::text[])[g], ',') from generate_series(1, ${total}) g`);
    await db.execute(sql`insert into couples (id, partner1_id, couple_name, couple_types, status, is_visible)
      select ${key("c")}, ${key("u")}, ${tag} || ' Rank' || g, array['global_adventurers'], 'active', true from generate_series(1, ${total}) g`);
    // Every couple so far (this file's other tests' too) joined an hour ago: a ranking computed now
    // takes in only what changes after it (and a minute before).
    await db.execute(sql`update couples set match_changed_at = now() - interval '1 hour'`);
    const bulk = resultRows<{ id: string; user: string }>(
      await db.execute(sql`select ${key("c")} as id, ${key("u")} as user from generate_series(1, ${total}) g order by g`),
    );

    // The order a plain recomputation gives: every couple the viewer may see, by interests in common
    // (their lists intersected), then id; those sharing none after, by id.
    const expected = async () => {
      const mine = (await db.select({ interests: couples.matchInterests }).from(couples).where(eq(couples.id, me.coupleId)))[0]!.interests;
      const blocked = new Set(
        (await db.select().from(coupleBlocks)).flatMap((b) =>
          b.blockerCoupleId === me.coupleId ? [b.blockedCoupleId] : b.blockedCoupleId === me.coupleId ? [b.blockerCoupleId] : [],
        ),
      );
      const everyone = await db
        .select({ id: couples.id, interests: couples.matchInterests, status: couples.status, visible: couples.isVisible })
        .from(couples);
      const ranked = everyone
        .filter((c) => c.id !== me.coupleId && c.status === "active" && c.visible && !blocked.has(c.id))
        .map((c) => ({ id: c.id, common: c.interests.filter((value) => mine.includes(value)).length }));
      const byIdDesc = (x: { id: string }, y: { id: string }) => (x.id < y.id ? 1 : -1);
      return ranked
        .sort((x, y) => Math.sign(y.common) - Math.sign(x.common) || y.common - x.common || byIdDesc(x, y))
        .map((c) => [c.id, c.common]);
    };
    const everyPage = async () => {
      const seen: (string | number)[][] = [];
      let cursor: string | null = null;
      do {
        const res = await list(`?sort=common&limit=40${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, me.a.headers);
        expect(res.status).toBe(200);
        const page = res.json as Page;
        seen.push(...page.data.map((card) => [card.coupleId, card.interestsInCommon]));
        cursor = page.pagination.nextCursor;
      } while (cursor && seen.length < 5000);
      return seen;
    };
    const kept = async () => (await db.select().from(directoryCommonRanks).where(eq(directoryCommonRanks.coupleId, me.coupleId)))[0];

    const first = await expected();
    expect(first.filter(([, common]) => common === 5).length).toBeGreaterThan(0);
    expect(first.filter(([, common]) => common !== 0).length).toBeGreaterThan(COMMON_STORED);
    expect(await everyPage()).toEqual(first);
    const ranking = (await kept())!;
    // The first COMMON_STORED of those sharing an interest, the floor the last of them.
    expect(ranking.coupleIds).toEqual(first.slice(0, COMMON_STORED).map(([id]) => id));
    expect([ranking.floorId, ranking.floorCommon]).toEqual(first[COMMON_STORED - 1]);

    // Changed since: a couple far below the floor now shares all five; a kept one hides; the viewer blocks another.
    const ours = first.filter(([id]) => bulk.some((row) => row.id === id)).map(([id]) => id as string);
    const promoted = ours.at(-1)!;
    const promotedUser = bulk.find((row) => row.id === promoted)!.user;
    await db
      .update(users)
      .set({ interests: V.slice(0, 5) })
      .where(eq(users.id, promotedUser));
    const [hidden, blocked] = ours as [string, string];
    await db.update(couples).set({ isVisible: false }).where(eq(couples.id, hidden));
    await db.insert(coupleBlocks).values({ blockerCoupleId: me.coupleId, blockedCoupleId: blocked, createdByUserId: me.a.userId });
    const changed = await expected();
    expect(changed.findIndex(([id]) => id === promoted)).toBeLessThan(COMMON_STORED / 2);
    expect(await everyPage()).toEqual(changed);
    // Answered from the same ranking, taking in what changed.
    expect((await kept())!.computedAt).toEqual(ranking.computedAt);

    // The viewer's own interests change: it is ranked again, from them.
    await db
      .update(users)
      .set({ interests: [V[5]!, V[6]!] })
      .where(eq(users.id, me.b.userId));
    const mineChanged = await expected();
    expect(await everyPage()).toEqual(mineChanged);
    const again = (await kept())!;
    expect(again.computedAt.getTime()).toBeGreaterThan(ranking.computedAt.getTime());
    // (Blocks are the page's to check: a ranking keeps a couple the viewer blocked.)
    const keptSeen = again.coupleIds.filter((id) => id !== blocked);
    expect(keptSeen).toEqual(mineChanged.slice(0, keptSeen.length).map(([id]) => id));

    // More couples changed since than a page takes in: ranked again too.
    await db.execute(sql`update users set interests = interests || ${sql.param([V[9]!])}::text[] where email like ${`${tag}%`}`);
    expect(await everyPage()).toEqual(await expected());
    expect((await kept())!.computedAt.getTime()).toBeGreaterThan(again.computedAt.getTime());
  });

  it("ranks the couples without parallel workers, however cheap the planner is told they are (migration 0033)", async () => {
    const db = await getDb();
    const plans = await db.transaction(async (tx) => {
      for (const setting of ["parallel_setup_cost", "parallel_tuple_cost", "min_parallel_table_scan_size", "min_parallel_index_scan_size"])
        await tx.execute(sql`select set_config(${setting}, '0', true)`);
      const plan = async (table: "couples" | "users") =>
        JSON.stringify(
          resultRows(await tx.execute(sql`explain select id from ${sql.identifier(table)} where id::text like '%a%' order by id`)),
        );
      const [workers] = resultRows<{ workers: string }>(
        await tx.execute(sql`select current_setting('max_parallel_workers_per_gather') as workers`),
      );
      return { couples: await plan("couples"), users: await plan("users"), workers: Number(workers!.workers) };
    });
    expect(plans.couples).not.toContain("Gather");
    // Where the database has workers at all (not the embedded one), another table's read takes them.
    if (plans.workers > 0) expect(plans.users).toContain("Gather");
  });
});

describe("GET /api/couples/{id}/full-profile about another couple", () => {
  it("carries first names and ages, the interests Venn and the distance band", async () => {
    const tag = newTag();
    const me = await couple(tag, "Me", {
      interests: [
        [I0, I1, I2],
        [I0, I3],
      ],
      place: LISBON,
    });
    const other = await couple(tag, "Other", {
      interests: [
        [I0, I2, I4],
        [I0, I5],
      ],
      place: SINTRA,
    });
    const res = await getProfile(other.coupleId, me.a.headers);
    expect(res.status).toBe(200);
    const data = res.json.data;
    expect(data.partners).toEqual([
      {
        id: other.a.userId,
        role: "A",
        firstName: other.a.firstName,
        age: expect.any(Number),
        occupation: "Engineer",
        avatarUrl: null,
        interests: expect.any(Array),
      },
      {
        id: other.b.userId,
        role: "B",
        firstName: other.b.firstName,
        age: expect.any(Number),
        occupation: "Engineer",
        avatarUrl: null,
        interests: expect.any(Array),
      },
    ]);
    expect(data.interestsVenn).toEqual({ shared: [I0, I2], onlyYours: [I1, I3], onlyTheirs: [I4, I5], allFour: [I0] });
    expect(data.distanceBand).toBe("Within 25 km");
    // Their own profile: no Venn against themselves, their last names kept.
    const own = (await getProfile(me.coupleId, me.a.headers)).json.data;
    expect(own).toMatchObject({ isOwn: true, interestsVenn: null, distanceBand: null });
    expect(own.partners[0].lastName).toBe("Lovelace");
  });

  it("answers a couple blocked either way with the same 404 as an unknown id", async () => {
    const tag = newTag();
    const me = await couple(tag, "Me");
    const mine = await couple(tag, "Blocked");
    const theirs = await couple(tag, "Blocker");
    const db = await getDb();
    await db.insert(coupleBlocks).values([
      { blockerCoupleId: me.coupleId, blockedCoupleId: mine.coupleId, createdByUserId: me.a.userId },
      { blockerCoupleId: theirs.coupleId, blockedCoupleId: me.coupleId, createdByUserId: theirs.a.userId },
    ]);
    const unknown = await getProfile("00000000-0000-4000-8000-000000000000", me.a.headers);
    expect(unknown.status).toBe(404);
    for (const id of [mine.coupleId, theirs.coupleId]) {
      const res = await getProfile(id, me.a.headers);
      expect(res.status).toBe(404);
      expect(res.json).toEqual(unknown.json);
    }
  });
});

describe("GET /api/v2/auth/me interestsVenn", () => {
  it("compares the two partners' interests", async () => {
    const us = await couple(newTag(), "Us", {
      interests: [
        [I0, I1, I2],
        [I1, I3],
      ],
    });
    const res = await call(meRoute, "GET", "/api/v2/auth/me", { headers: us.a.headers });
    const user = res.status === 200 ? res.json : res.json.user;
    expect(user.interestsVenn).toEqual({ shared: [I1], onlyMine: [I0, I2], onlyPartner: [I3] });
    const theirs = await call(meRoute, "GET", "/api/v2/auth/me", { headers: us.b.headers });
    expect((theirs.status === 200 ? theirs.json : theirs.json.user).interestsVenn).toEqual({
      shared: [I1],
      onlyMine: [I3],
      onlyPartner: [I0, I2],
    });
  });
});
