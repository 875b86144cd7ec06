import { describe, expect, it } from "vitest";
import { GET as me } from "@/app/api/v2/auth/me/route";
import { getDb } from "@/db/client";
import { eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { couples, sessions, users } from "@/db/schema";
import { ageOn } from "@/lib/auth/rules";
import { sessionCookieName } from "@/lib/auth/session-token";
import { revokeSession } from "@/lib/auth/sessions";
import { browserSession, call, createUser } from "../support/api";
import { apiSession, bearer } from "../support/flows";

const meCall = (headers: Record<string, string> = {}) =>
  call(me, "GET", "/api/v2/auth/me", { headers: { accept: "application/json; version=v2", "x-api-version": "v2", ...headers } });

/** Partner A with a complete profile, partner B, and their couple. */
async function coupleWithTwoPartners() {
  const a = await createUser({
    firstName: "Marisol",
    lastName: "Okafor",
    occupation: "Architect",
    dateOfBirth: "1990-05-17",
    city: "Lisbon",
  });
  const b = await createUser({
    firstName: "Jericho",
    lastName: "Berg",
    occupation: "Chef",
    dateOfBirth: "1988-11-02",
    city: "Porto",
    country: "Portugal",
  });
  const db = await getDb();
  const [couple] = await db
    .insert(couples)
    .values({
      partner1Id: a.id,
      partner2Id: b.id,
      coupleName: "Marisol & Jericho",
      bio: "We like long walks.",
      coupleTypes: ["culture_curators"],
      partnerAVerified: true,
    })
    .returning();
  return { a, b, couple: couple! };
}

/** Any sign of a secret anywhere in a JSON answer. */
function expectNoSecrets(json: unknown, ...secrets: string[]) {
  const text = JSON.stringify(json);
  expect(text).not.toMatch(/password|argon2|token_?hash|refresh/i);
  for (const secret of secrets) expect(text).not.toContain(secret);
}

describe("GET /api/v2/auth/me", () => {
  it("answers 401 without authentication", async () => {
    const res = await meCall();
    expect(res.status).toBe(401);
    expect(res.json.error).toEqual({ code: "UNAUTHENTICATED", message: "Not authenticated" });
  });

  it.each([["Bearer garbage"], ["Bearer "], ["Basic dXNlcjpwYXNz"], ["garbage"]])(
    "answers 401 to the authorization header %j",
    async (authorization) => {
      const res = await meCall({ authorization });
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe("UNAUTHENTICATED");
    },
  );

  it("does not fall back to the cookie when a bad bearer token is sent", async () => {
    const user = await createUser();
    const { cookie } = await browserSession(user.id);
    expect((await meCall({ cookie, authorization: "Bearer garbage" })).status).toBe(401);
  });

  it("answers 409 PROFILE_INCOMPLETE with the partial account to a user without a couple", async () => {
    const user = await createUser({ occupation: "Architect" });
    const session = await apiSession(user.email);
    const res = await meCall(bearer(session.access_token));
    expect(res.status).toBe(409);
    expect(res.json.error).toEqual({ code: "PROFILE_INCOMPLETE", message: "User profile incomplete - continue with onboarding" });
    expect(res.json.user).toMatchObject({ userId: user.id, email: user.email, firstName: "Ada", lastName: "Lovelace", coupleId: null });
    expectNoSecrets(res.json, user.passwordHash, session.access_token, session.refresh_token);
  });

  it("answers 409 while the user's own occupation is missing, even with a couple", async () => {
    const a = await createUser({ occupation: null });
    const db = await getDb();
    await db.insert(couples).values({ partner1Id: a.id, coupleName: "Solo" });
    const { cookie } = await browserSession(a.id);
    const res = await meCall({ cookie });
    expect(res.status).toBe(409);
    expect(res.json.user.coupleName).toBe("Solo");
  });

  it("answers partner A the flat shape with both partners and no secret", async () => {
    const { a, b, couple } = await coupleWithTwoPartners();
    const session = await apiSession(a.email);
    const res = await meCall(bearer(session.access_token));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(res.json).toMatchObject({
      userId: a.id,
      email: a.email,
      firstName: "Marisol",
      lastName: "Okafor",
      dateOfBirth: "1990-05-17",
      occupation: "Architect",
      coupleId: couple.id,
      coupleName: "Marisol & Jericho",
      coupleBio: "We like long walks.",
      coupleTypes: ["culture_curators"],
      coupleStatus: "active",
      partnerAVerified: true,
      partnerBVerified: false,
      partner1Id: a.id,
      partner2Id: b.id,
      age: ageOn("1990-05-17"),
      partnerAge: ageOn("1988-11-02"),
      partnerFirstName: "Jericho",
      partnerOccupation: "Chef",
      partnerCity: "Porto",
      partnerCountry: "Portugal",
      partner1: { id: a.id, firstName: "Marisol", lastName: "Okafor", occupation: "Architect", age: ageOn("1990-05-17"), city: "Lisbon" },
      partner2: { id: b.id, firstName: "Jericho", lastName: "Berg", occupation: "Chef", age: ageOn("1988-11-02"), city: "Porto" },
    });
    expectNoSecrets(res.json, a.passwordHash, b.passwordHash, session.access_token, session.refresh_token);
    // The partner's e-mail and exact coordinates are not part of the answer.
    expect(JSON.stringify(res.json)).not.toContain(b.email);
    expect(JSON.stringify(res.json)).not.toMatch(/latitude|longitude/);
  });

  it("answers partner B with the same couple, seen from the other side", async () => {
    const { a, b, couple } = await coupleWithTwoPartners();
    const { cookie } = await browserSession(b.id);
    const res = await meCall({ cookie });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      userId: b.id,
      coupleId: couple.id,
      partner1Id: a.id,
      partner2Id: b.id,
      partner1: { id: a.id, firstName: "Marisol" },
      partner2: { id: b.id, firstName: "Jericho" },
      partnerFirstName: "Marisol",
      age: ageOn("1988-11-02"),
      partnerAge: ageOn("1990-05-17"),
    });
  });

  it("answers a couple without partner B with partner2 and the partner fields empty", async () => {
    const a = await createUser({ occupation: "Architect" });
    const db = await getDb();
    await db.insert(couples).values({ partner1Id: a.id, coupleName: "Waiting" });
    const { cookie } = await browserSession(a.id);
    const res = await meCall({ cookie });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ partner1: { id: a.id }, partner2: null, partner2Id: null, partnerFirstName: null, partnerAge: null });
  });

  it("never shows a user another couple's data", async () => {
    await coupleWithTwoPartners();
    const loner = await createUser({ occupation: "Pilot" });
    const db = await getDb();
    const [mine] = await db.insert(couples).values({ partner1Id: loner.id, coupleName: "Just me" }).returning();
    const res = await meCall(bearer((await apiSession(loner.email)).access_token));
    expect(res.json).toMatchObject({ coupleId: mine!.id, coupleName: "Just me", partner2: null });
  });

  it("works with the browser cookie and with a bearer token alike", async () => {
    const { a } = await coupleWithTwoPartners();
    const { cookie } = await browserSession(a.id);
    const viaCookie = await meCall({ cookie });
    const viaBearer = await meCall(bearer((await apiSession(a.email)).access_token));
    expect(viaCookie.status).toBe(200);
    expect(viaBearer.status).toBe(200);
    expect(viaCookie.json).toEqual(viaBearer.json);
  });

  it("answers 401 to the cookie of a revoked session", async () => {
    const { a } = await coupleWithTwoPartners();
    const session = await browserSession(a.id);
    expect((await meCall({ cookie: session.cookie })).status).toBe(200);
    await revokeSession(await getDb(), session.sid);
    const res = await meCall({ cookie: session.cookie });
    expect(res.status).toBe(401);
  });

  it("answers 401 once the session row has expired, with the cookie and with a bearer token", async () => {
    const { a } = await coupleWithTwoPartners();
    const browser = await browserSession(a.id);
    const api = await apiSession(a.email);
    const db = await getDb();
    expect((await meCall({ cookie: browser.cookie })).status).toBe(200);
    expect((await meCall(bearer(api.access_token))).status).toBe(200);
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, a.id));
    expect((await meCall({ cookie: browser.cookie })).status).toBe(401);
    expect((await meCall(bearer(api.access_token))).json.error.code).toBe("SESSION_EXPIRED");
  });

  it("answers 401 to a cookie whose session row belongs to someone else", async () => {
    const { a, b } = await coupleWithTwoPartners();
    const theirs = await browserSession(b.id);
    // Only possible with the secret; proves the row, not the cookie, says whose call it is.
    const name = sessionCookieName();
    const token = await encode({ token: { sub: a.id, sid: theirs.sid }, secret: process.env.AUTH_SECRET!, salt: name });
    expect((await meCall({ cookie: `${name}=${token}` })).status).toBe(401);
  });

  it("shows the partner's change on the very next call", async () => {
    const { a, b } = await coupleWithTwoPartners();
    const { cookie } = await browserSession(a.id);
    expect((await meCall({ cookie })).json.partnerOccupation).toBe("Chef");
    await (await getDb()).update(users).set({ occupation: "Baker" }).where(eq(users.id, b.id));
    expect((await meCall({ cookie })).json.partnerOccupation).toBe("Baker");
  });

  it("answers 401 to a cookie that is not a valid session token", async () => {
    const { a } = await coupleWithTwoPartners();
    const session = await browserSession(a.id);
    const tampered = `${session.cookie.slice(0, -4)}AAAA`;
    expect((await meCall({ cookie: tampered })).status).toBe(401);
  });
});
