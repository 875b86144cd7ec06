import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as discoverRoute } from "@/app/api/discover/route";
import { POST as dismissRoute } from "@/app/api/discover/[coupleId]/dismiss/route";
import { PUT as blockRoute } from "@/app/api/couples/[id]/block/route";
import { getDb } from "@/db/client";
import { couples, discoverDismissals, users } from "@/db/schema";
import { call } from "../support/api";
import { forumCouple, LISBON, PORTO, SINTRA, type Headers, type Place, type TestCouple } from "../support/forum";

const discover = (h: Headers) => call(discoverRoute, "GET", "/api/discover", { headers: h });
const dismiss = (id: string, h: Headers) => call(dismissRoute, "POST", `/api/discover/${encodeURIComponent(id)}/dismiss`, { headers: h, params: { coupleId: id } });

/** A couple whose partners hold these interests and who chose these styles. */
async function couple(a: string[], b: string[], styles: string[], options: { place?: Place; visible?: boolean } = {}): Promise<TestCouple> {
  const made = await forumCouple(options);
  const db = await getDb();
  await db.update(users).set({ interests: a }).where(eq(users.id, made.a.userId));
  await db.update(users).set({ interests: b }).where(eq(users.id, made.b.userId));
  await db.update(couples).set({ interests: [...new Set([...a, ...b])], coupleTypes: styles }).where(eq(couples.id, made.coupleId));
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
    expect(top.reasons).toEqual(["You all love sailing, skiing and theatre", "Both Culture Curators", "Within 50 km"]);
    expect(top.distance).toBe("Within 50 km");
    expect(cards(res).find((card) => card.coupleId === middle.coupleId)!.reasons).toEqual(["You all love sailing", "Both couples also enjoy skiing"]);
    expect(ids(res)).not.toContain(us.coupleId);
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
    for (const secret of ["lastName", "last_name", "email", "dateOfBirth", "latitude", "longitude", "display_coordinates", "Lovelace", "Rua Exacta", "@example.com", "38.8"]) {
      expect(text).not.toContain(secret);
    }
    expect(Object.keys(cards(res)[0]!).sort()).toEqual(["badge", "coupleId", "coupleName", "coupleTypes", "distance", "location", "profileImageUrl", "reasons", "score"]);
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
    await db.update(discoverDismissals).set({ hiddenUntil: new Date(Date.now() - 1000) }).where(eq(discoverDismissals.dismissedCoupleId, them.coupleId));
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
