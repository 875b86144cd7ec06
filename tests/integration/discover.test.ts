import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as discoverRoute } from "@/app/api/discover/route";
import { POST as dismissRoute } from "@/app/api/discover/[coupleId]/dismiss/route";
import { PUT as blockRoute } from "@/app/api/couples/[id]/block/route";
import { getDb } from "@/db/client";
import { couples, discoverDismissals, discoverSummaries, locations, users } from "@/db/schema";
import { discoverSuggestions, SUMMARY_TTL_MS } from "@/lib/discover/queries";
import { DISCOVER_LIMIT } from "@/lib/discover/rules";
import { APART_UNTIL, keepApart } from "@/lib/discover/service";
import { exportAccount } from "@/lib/account/export";
import { call } from "../support/api";
import { dashboardFinds } from "../support/bulk-couples";
import { recordingStatements } from "../support/query-plan";
import { onPostgres } from "../support/test-database";
import { forumCouple, LISBON, PORTO, SINTRA, type Headers, type Place, type TestCouple } from "../support/forum";

const discover = (h: Headers) => call(discoverRoute, "GET", "/api/discover", { headers: h });
const dismiss = (id: string, h: Headers) =>
  call(dismissRoute, "POST", `/api/discover/${encodeURIComponent(id)}/dismiss`, { headers: h, params: { coupleId: id } });

/** A couple whose partners hold these interests and who chose these styles. */
async function couple(a: string[], b: string[], styles: string[], options: { place?: Place; visible?: boolean } = {}): Promise<TestCouple> {
  const made = await forumCouple(options);
  const db = await getDb();
  await db.update(users).set({ interests: a }).where(eq(users.id, made.a.userId));
  await db.update(users).set({ interests: b }).where(eq(users.id, made.b.userId));
  await db
    .update(couples)
    .set({ interests: [...new Set([...a, ...b])], coupleTypes: styles })
    .where(eq(couples.id, made.coupleId));
  return made;
}

type Card = { coupleId: string; reasons: string[]; distance: string | null };
const cards = (res: { json: { data: Card[] } }) => res.json.data;
const ids = (res: { json: { data: Card[] } }) => cards(res).map((card) => card.coupleId);

// A theme no other test file uses, so the suggestions here are ours to reason about.
const RARE = ["sailing", "skiing", "theatre"];

describe("GET /api/discover", () => {
  it("ranks by interests all four share, then the couples', styles and distance, and says why", async () => {
    const us = await couple(RARE, RARE, ["culture_curators"], { place: LISBON });
    const best = await couple(RARE, RARE, ["culture_curators"], { place: SINTRA });
    const middle = await couple(["sailing", "skiing"], ["sailing", "writing"], [], { place: PORTO });
    const weak = await couple(["theatre"], ["music"], []);
    const res = await discover(us.a.headers);
    expect(res.status).toBe(200);
    const ours = ids(res).filter((id) => [best.coupleId, middle.coupleId, weak.coupleId].includes(id));
    expect(ours).toEqual([best.coupleId, middle.coupleId, weak.coupleId]);
    const top = cards(res).find((card) => card.coupleId === best.coupleId)!;
    expect(top.reasons).toEqual(["You all love sailing, skiing and theatre", "Both Culture Curators", "Within 25 km"]);
    expect(top.distance).toBe("Within 25 km");
    expect(cards(res).find((card) => card.coupleId === middle.coupleId)!.reasons).toEqual(["You all love sailing"]);
    expect(ids(res)).not.toContain(us.coupleId);
  });

  it.skipIf(!onPostgres())(
    "reads a suggestion's place as a card shows it, searching and reading its stored list: never the place id or the row's times",
    async () => {
      const us = await couple(RARE, RARE, ["culture_curators"], { place: LISBON });
      const near = await couple(RARE, RARE, ["culture_curators"], { place: SINTRA });
      const { logging, logged } = recordingStatements(await getDb());
      // The first read searches and stores the lists; the second reads them.
      for (let read = 0; read < 2; read++) {
        const suggestions = await discoverSuggestions(logging, us.a.userId);
        expect(suggestions.find((card) => card.coupleId === near.coupleId)?.location).toBe("Sintra, Portugal");
      }
      const placeReads = logged.filter((one) => one.query.includes('"locations"."privacy_level"'));
      expect(placeReads.length).toBeGreaterThanOrEqual(2);
      for (const read of placeReads) expect(read.query).not.toMatch(/"locations"\."(place_id|created_at|updated_at)"/);
    },
  );

  it.skipIf(!onPostgres())("reads the stored lists in one statement that binds the viewer once, the couple found within it", async () => {
    const us = await couple(RARE, RARE, ["culture_curators"], { place: LISBON });
    await couple(RARE, RARE, ["culture_curators"], { place: SINTRA });
    const db = await getDb();
    // The first read searches and stores the lists; the next reads them.
    await discoverSuggestions(db, us.a.userId);
    const { logging, logged } = recordingStatements(db);
    await discoverSuggestions(logging, us.a.userId);
    const [finds] = logged;
    expect(finds!.query).toContain('"discover_suggestions"');
    // The user once; the rest literals, which a generic plan can match to the partial indexes.
    expect(finds!.params).toEqual([us.a.userId, "couple"]);
  });

  it("never suggests hidden or blocked couples (either way), and carries no private field", async () => {
    const us = await couple(RARE, RARE, ["culture_curators"], { place: LISBON });
    const hidden = await couple(RARE, RARE, ["culture_curators"], { place: SINTRA, visible: false });
    const blockedByUs = await couple(RARE, RARE, ["culture_curators"], { place: SINTRA });
    const blockedUs = await couple(RARE, RARE, ["culture_curators"], { place: SINTRA });
    const visible = await couple(RARE, RARE, ["culture_curators"], { place: SINTRA });
    const blockCall = (id: string, h: Headers) => call(blockRoute, "PUT", `/api/couples/${id}/block`, { headers: h, params: { id } });
    expect((await blockCall(blockedByUs.coupleId, us.a.headers)).status).toBe(200);
    expect((await blockCall(us.coupleId, blockedUs.b.headers)).status).toBe(200);
    const res = await discover(us.b.headers);
    expect(ids(res)).toContain(visible.coupleId);
    for (const other of [hidden, blockedByUs, blockedUs]) expect(ids(res)).not.toContain(other.coupleId);
    const text = JSON.stringify(res.json);
    for (const secret of [
      "lastName",
      "last_name",
      "email",
      "dateOfBirth",
      "latitude",
      "longitude",
      "display_coordinates",
      "Lovelace",
      "Rua Exacta",
      "@example.com",
      "38.8",
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(Object.keys(cards(res)[0]!).sort()).toEqual([
      "badge",
      "connection",
      "coupleId",
      "coupleName",
      "coupleTypes",
      "distance",
      "location",
      "photoBadge",
      "profileImageUrl",
      "reasons",
      "score",
    ]);
  });

  it("answers 401 signed out", async () => {
    expect((await discover({})).status).toBe(401);
  });
});

describe("POST /api/discover/{coupleId}/dismiss", () => {
  it("'Not for us' hides a couple for 30 days for both partners, and only for that couple", async () => {
    const us = await couple(RARE, RARE, ["culture_curators"]);
    const neighbours = await couple(RARE, RARE, ["culture_curators"]);
    const them = await couple(RARE, RARE, ["culture_curators"]);
    expect(ids(await discover(us.a.headers))).toContain(them.coupleId);
    const res = await dismiss(them.coupleId, us.a.headers);
    expect(res.status).toBe(200);
    const days = (Date.parse(res.json.data.hiddenUntil) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect(ids(await discover(us.a.headers))).not.toContain(them.coupleId);
    expect(ids(await discover(us.b.headers))).not.toContain(them.coupleId);
    // Another couple still sees them.
    expect(ids(await discover(neighbours.a.headers))).toContain(them.coupleId);
    // Dismissing again is fine.
    expect((await dismiss(them.coupleId, us.b.headers)).status).toBe(200);

    // After 30 days they come back.
    const db = await getDb();
    await db
      .update(discoverDismissals)
      .set({ hiddenUntil: new Date(Date.now() - 1000) })
      .where(eq(discoverDismissals.dismissedCoupleId, them.coupleId));
    expect(ids(await discover(us.a.headers))).toContain(them.coupleId);
  });

  it("refuses the own couple (400), and answers one 404 for unknown, malformed, hidden and blocked couples", async () => {
    const us = await couple(RARE, RARE, []);
    const hidden = await couple(RARE, RARE, [], { visible: false });
    const blocker = await couple(RARE, RARE, []);
    await call(blockRoute, "PUT", `/api/couples/${us.coupleId}/block`, { headers: blocker.a.headers, params: { id: us.coupleId } });
    const own = await dismiss(us.coupleId, us.a.headers);
    expect(own.status).toBe(400);
    expect(own.json.error.code).toBe("VALIDATION_ERROR");
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid", hidden.coupleId, blocker.coupleId]) {
      const res = await dismiss(id, us.a.headers);
      expect(res.status, id).toBe(404);
      expect(res.json.error.code).toBe("NOT_FOUND");
    }
    expect((await dismiss(hidden.coupleId, {})).status).toBe(401);
  });
});

// Another theme of its own: the stored lists here hold only couples these tests made.
const STORED = ["gardening", "volunteering"];
const suggested = async (userId: string, now?: Date) =>
  (await discoverSuggestions(await getDb(), userId, undefined, now)).map((card) => card.coupleId);

describe("stored suggestions (discover_suggestions)", () => {
  it("later reads use the stored list; it is computed again after a day, or at once when the viewer's interests, styles or place change", async () => {
    const us = await couple(STORED, STORED, []);
    const first = await couple(STORED, STORED, []);
    expect(await suggested(us.a.userId)).toContain(first.coupleId);
    const db = await getDb();
    const [stored] = await db.select().from(discoverSummaries).where(eq(discoverSummaries.coupleId, us.coupleId));
    expect(stored!.candidateIds).toContain(first.coupleId);

    // A couple joining later reaches the stored list at once, for either partner, without it being searched again...
    const later = await couple(STORED, STORED, []);
    expect(await suggested(us.b.userId)).toContain(later.coupleId);
    const [kept] = await db.select().from(discoverSummaries).where(eq(discoverSummaries.coupleId, us.coupleId));
    expect(kept!.computedAt).toEqual(stored!.computedAt);
    // ...and so does one that takes up the same interests, or becomes discoverable.
    const changer = await couple(["music"], ["music"], []);
    const shy = await couple(STORED, STORED, []);
    await db.update(couples).set({ isVisible: false }).where(eq(couples.id, shy.coupleId));
    expect(await suggested(us.a.userId)).not.toContain(changer.coupleId);
    expect(await suggested(us.a.userId)).not.toContain(shy.coupleId);
    await db.update(users).set({ interests: STORED }).where(eq(users.id, changer.a.userId));
    await db.update(couples).set({ isVisible: true }).where(eq(couples.id, shy.coupleId));
    expect(await suggested(us.a.userId)).toEqual(expect.arrayContaining([changer.coupleId, shy.coupleId]));
    // The list is searched again a day later,
    expect(await suggested(us.a.userId, new Date(Date.now() + SUMMARY_TTL_MS + 60_000))).toContain(later.coupleId);
    const [recomputed] = await db.select().from(discoverSummaries).where(eq(discoverSummaries.coupleId, us.coupleId));
    expect(recomputed!.candidateIds).toEqual(expect.arrayContaining([later.coupleId, changer.coupleId, shy.coupleId]));

    // and at once after the viewer's own interests change (here: one partner adds one).
    const another = await couple(STORED, STORED, []);
    await db
      .update(users)
      .set({ interests: [...STORED, "writing"] })
      .where(eq(users.id, us.b.userId));
    expect(await suggested(us.a.userId)).toContain(another.coupleId);

    // The couple's stored list does not, while the partners' own interests are what the scorer reads.
    const [before] = await db.select().from(discoverSummaries).where(eq(discoverSummaries.coupleId, us.coupleId));
    await db
      .update(couples)
      .set({ interests: ["music"] })
      .where(eq(couples.id, us.coupleId));
    await suggested(us.a.userId);
    const [after] = await db.select().from(discoverSummaries).where(eq(discoverSummaries.coupleId, us.coupleId));
    expect(after!.computedAt).toEqual(before!.computedAt);

    // A style or a place of the couple's own counts too.
    const third = await couple(STORED, STORED, []);
    await db
      .update(couples)
      .set({ coupleTypes: ["culture_curators"] })
      .where(eq(couples.id, us.coupleId));
    expect(await suggested(us.a.userId)).toContain(third.coupleId);
  });

  it("a couple hidden, blocked (either way) or dismissed after the list was stored drops out at once; its band and reasons are live", async () => {
    const us = await couple(STORED, STORED, [], { place: LISBON });
    const hidden = await couple(STORED, STORED, [], { place: SINTRA });
    const blockedByUs = await couple(STORED, STORED, [], { place: SINTRA });
    const blockedUs = await couple(STORED, STORED, [], { place: SINTRA });
    const dismissed = await couple(STORED, STORED, [], { place: SINTRA });
    const moved = await couple(STORED, STORED, [], { place: SINTRA });
    const all = [hidden, blockedByUs, blockedUs, dismissed, moved].map((other) => other.coupleId);
    const before = await discover(us.a.headers);
    for (const id of all) expect(ids(before)).toContain(id);
    expect(cards(before).find((card) => card.coupleId === moved.coupleId)!.distance).toBe("Within 25 km");

    const db = await getDb();
    await db.update(couples).set({ isVisible: false }).where(eq(couples.id, hidden.coupleId));
    const blockCall = (id: string, h: Headers) => call(blockRoute, "PUT", `/api/couples/${id}/block`, { headers: h, params: { id } });
    expect((await blockCall(blockedByUs.coupleId, us.a.headers)).status).toBe(200);
    expect((await blockCall(us.coupleId, blockedUs.b.headers)).status).toBe(200);
    expect((await dismiss(dismissed.coupleId, us.b.headers)).status).toBe(200);
    // The couple hides its place: no band and no distance reason any more, though the list is not recomputed.
    await db.update(locations).set({ privacyLevel: "hidden" }).where(eq(locations.entityId, moved.coupleId));

    const after = await discover(us.a.headers);
    for (const gone of [hidden, blockedByUs, blockedUs, dismissed]) expect(ids(after)).not.toContain(gone.coupleId);
    const card = cards(after).find((c) => c.coupleId === moved.coupleId)!;
    expect(card.distance).toBeNull();
    expect(card.reasons.join(" ")).not.toContain("km");
    // The list was searched again, without the couples gone, so the next couple takes each place.
    const [stored] = await db.select().from(discoverSummaries).where(eq(discoverSummaries.coupleId, us.coupleId));
    expect(stored!.candidateIds).toContain(moved.coupleId);
    for (const gone of [hidden, blockedByUs, blockedUs, dismissed]) expect(stored!.candidateIds).not.toContain(gone.coupleId);
  });

  it("keeps a full list after 'Not for us': the next couple takes the dismissed one's place at once", async () => {
    const THEME = ["birdwatching", "pottery"];
    const us = await couple(THEME, THEME, [], { place: PORTO });
    const others: TestCouple[] = [];
    for (let i = 0; i <= DISCOVER_LIMIT; i++) others.push(await couple(THEME, THEME, [], { place: PORTO }));
    // Changed an hour ago: read from the stored list, not as couples changed since it (scored live).
    const db = await getDb();
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await db
      .update(couples)
      .set({ matchChangedAt: anHourAgo })
      .where(
        inArray(
          couples.id,
          [us, ...others].map((c) => c.coupleId),
        ),
      );
    const before = await suggested(us.a.userId);
    expect(before).toHaveLength(DISCOVER_LIMIT);
    const waiting = others.find((other) => !before.includes(other.coupleId))!;
    expect(waiting).toBeDefined();

    expect((await dismiss(before[0]!, us.b.headers)).status).toBe(200);
    const after = await suggested(us.a.userId);
    expect(after).toHaveLength(DISCOVER_LIMIT);
    expect(after).not.toContain(before[0]);
    expect(after).toContain(waiting.coupleId);
  });

  it("a partner's own interests counting anew (the couple's together unchanged) reach the stored list at once, on discover and the dashboard alike", async () => {
    // What all four share is read per partner: a couple whose partners' union stays the same may
    // still score more. A full stored list of couples sharing one interest with all four (score 4)
    // keeps out one whose second partner chose none (score 2)...
    const THEME = ["investing", "languages"];
    const us = await couple(THEME, THEME, []);
    const others: TestCouple[] = [];
    for (let i = 0; i < DISCOVER_LIMIT; i++) others.push(await couple(THEME, ["investing"], []));
    const late = await couple(THEME, [], []);
    const db = await getDb();
    await db
      .update(couples)
      .set({ matchChangedAt: new Date(Date.now() - 3_600_000) })
      .where(
        inArray(
          couples.id,
          [us, late, ...others].map((c) => c.coupleId),
        ),
      );
    expect(await suggested(us.a.userId)).not.toContain(late.coupleId);

    // ...until that partner takes up both: all four share both now (score 6), the best of all.
    const [before] = await db.select({ at: couples.matchChangedAt }).from(couples).where(eq(couples.id, late.coupleId));
    await db.update(users).set({ interests: THEME }).where(eq(users.id, late.b.userId));
    const [after] = await db.select({ at: couples.matchChangedAt }).from(couples).where(eq(couples.id, late.coupleId));
    expect(after!.at.getTime()).toBeGreaterThan(before!.at.getTime());
    const ranked = await discoverSuggestions(db, us.a.userId);
    expect(ranked[0]).toMatchObject({ coupleId: late.coupleId, score: 6 });
    // The dashboard shows the 3 discover ranks first.
    const { suggestions } = await dashboardFinds(db, us.b.userId, { suggestions: 3, near: 5 });
    expect(suggestions.map((card) => card.coupleId)).toEqual(ranked.slice(0, 3).map((card) => card.coupleId));
  });

  it("a partner joining or leaving counts as a change of what the couple is matched on, though their interests together stay the same", async () => {
    // With one partner no interest is one all four hold; with two, those both partners chose are.
    const THEME = ["investing", "languages"];
    const them = await couple(THEME, ["investing"], []);
    const db = await getDb();
    const matchChangedAt = async () =>
      (await db.select({ at: couples.matchChangedAt }).from(couples).where(eq(couples.id, them.coupleId)))[0]!.at.getTime();
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await db.update(couples).set({ matchChangedAt: anHourAgo }).where(eq(couples.id, them.coupleId));
    await db.update(couples).set({ partner2Id: null }).where(eq(couples.id, them.coupleId));
    expect(await matchChangedAt()).toBeGreaterThan(anHourAgo.getTime());
    await db.update(couples).set({ matchChangedAt: anHourAgo }).where(eq(couples.id, them.coupleId));
    await db.update(couples).set({ partner2Id: them.b.userId }).where(eq(couples.id, them.coupleId));
    expect(await matchChangedAt()).toBeGreaterThan(anHourAgo.getTime());
  });

  it("never shortens a hiding: 'Not for us' again after 'for good' keeps it for good, and the answer says so", async () => {
    const us = await couple(RARE, RARE, []);
    const met = await couple(RARE, RARE, []);
    await keepApart(await getDb(), met.coupleId, us.coupleId);
    const res = await dismiss(met.coupleId, us.a.headers);
    expect(res.status).toBe(200);
    expect((res.json as { data: { hiddenUntil: string } }).data.hiddenUntil).toBe(APART_UNTIL.toISOString());
    const [row] = await (
      await getDb()
    )
      .select({ hiddenUntil: discoverDismissals.hiddenUntil })
      .from(discoverDismissals)
      .where(eq(discoverDismissals.coupleId, us.coupleId));
    expect(row!.hiddenUntil).toEqual(APART_UNTIL);
  });

  it("is in both partners' data export: the couple's id and name and when, nothing more; not a couple that hid since, nor one kept apart at the other couple's word", async () => {
    const us = await couple(RARE, RARE, []);
    const [them, hiddenSince, keptApart] = [await couple(RARE, RARE, []), await couple(RARE, RARE, []), await couple(RARE, RARE, [])];
    expect((await dismiss(them.coupleId, us.a.headers)).status).toBe(200);
    expect((await dismiss(hiddenSince.coupleId, us.a.headers)).status).toBe(200);
    const db = await getDb();
    await db.update(couples).set({ isVisible: false }).where(eq(couples.id, hiddenSince.coupleId));
    // Both of the other couple said 'Not for us' after meeting us: their word, not ours.
    await keepApart(db, keptApart.coupleId, us.coupleId);
    const said = { firstDismissedAt: expect.any(Date), hiddenUntil: expect.any(Date) };
    for (const partner of [us.a, us.b]) {
      const { discoverNotForUs } = await exportAccount(db, partner.userId);
      expect(discoverNotForUs).toEqual(
        expect.arrayContaining([
          { coupleId: them.coupleId, coupleName: them.name, ...said },
          { coupleId: hiddenSince.coupleId, coupleName: null, ...said },
        ]),
      );
      expect(discoverNotForUs).toHaveLength(2);
    }
    expect((await exportAccount(db, them.a.userId)).discoverNotForUs).toEqual([]);
  });
});
