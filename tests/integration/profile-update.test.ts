import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as csrfToken } from "@/app/api/csrf-token/route";
import { PUT as update } from "@/app/api/v2/profile/update/route";
import { getDb } from "@/db/client";
import { couples, users } from "@/db/schema";
import { latestAdultBirthDate } from "@/lib/auth/rules";
import { revokeSession } from "@/lib/auth/sessions";
import { updateProfile } from "@/lib/profile/service";
import { browserSession, call, createUser } from "../support/api";
import { apiSession, bearer } from "../support/flows";

/** An image URL as this app's local storage hands them out. */
const OWN_IMAGE = "/api/images/couple-photo/0123456789abcdef0123456789abcdef.jpg";

/** A user whose couple shows the photos: a JSON call may only name images the caller's own rows show. */
async function userWithCouplePhotos(photos: string[], overrides: Parameters<typeof createUser>[0] = {}) {
  const user = await createUser(overrides);
  const db = await getDb();
  await db.insert(couples).values({ partner1Id: user.id, coupleName: "Ada & Grace", photos });
  return user;
}

const updateCall = (body: unknown, headers: Record<string, string>) => call(update, "PUT", "/api/v2/profile/update", { body, headers });

async function row(userId: string) {
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  return user!;
}

/** The day after the latest adult birth date: someone who turns 18 tomorrow. */
const minorBirthDate = () => {
  const date = new Date(`${latestAdultBirthDate()}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
};

describe("GET /api/csrf-token", () => {
  it("gives a browser session its token under csrfToken and token", async () => {
    const user = await createUser();
    const session = await browserSession(user.id);
    const res = await call(csrfToken, "GET", "/api/csrf-token", { headers: { cookie: session.cookie } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ csrfToken: session.csrf, token: session.csrf });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("gives no token without a session or to a bearer client", async () => {
    expect((await call(csrfToken, "GET", "/api/csrf-token")).json).toEqual({ csrfToken: null, token: null });
    const user = await createUser();
    const session = await apiSession(user.email);
    expect((await call(csrfToken, "GET", "/api/csrf-token", { headers: bearer(session.access_token) })).json.csrfToken).toBeNull();
  });

  it("gives each session its own token", async () => {
    const user = await createUser();
    const one = await browserSession(user.id);
    const two = await browserSession(user.id);
    expect(one.csrf).not.toBe(two.csrf);
  });
});

describe("PUT /api/v2/profile/update", () => {
  it("refuses a cookie-authenticated call without X-CSRF-Token with 403 CSRF_VALIDATION_FAILED and changes nothing", async () => {
    const user = await createUser();
    const session = await browserSession(user.id);
    const res = await updateCall({ firstName: "Mallory" }, { cookie: session.cookie });
    expect(res.status).toBe(403);
    expect(res.json.error).toEqual({ code: "CSRF_VALIDATION_FAILED", message: "Invalid CSRF token" });
    expect((await row(user.id)).firstName).toBe("Ada");
  });

  it("refuses another session's CSRF token", async () => {
    const user = await createUser();
    const mine = await browserSession(user.id);
    const other = await browserSession(user.id);
    const res = await updateCall({ firstName: "Mallory" }, { cookie: mine.cookie, "x-csrf-token": other.csrf });
    expect(res.status).toBe(403);
    expect((await row(user.id)).firstName).toBe("Ada");
  });

  it("updates the profile with the token from GET /api/csrf-token and answers the current user", async () => {
    const user = await userWithCouplePhotos([OWN_IMAGE]);
    const session = await browserSession(user.id);
    const { csrfToken: token } = (await call(csrfToken, "GET", "/api/csrf-token", { headers: { cookie: session.cookie } })).json;
    const res = await updateCall(
      { firstName: "  Grace ", lastName: "Hopper", occupation: "Admiral", bio: "Debugging since 1947.", avatarUrl: OWN_IMAGE },
      { cookie: session.cookie, "x-csrf-token": token },
    );
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    expect(res.json.data).toMatchObject({
      userId: user.id,
      firstName: "Grace",
      lastName: "Hopper",
      occupation: "Admiral",
      userAvatarUrl: OWN_IMAGE,
    });
    expect(JSON.stringify(res.json)).not.toMatch(/password|argon2/i);
    expect(await row(user.id)).toMatchObject({
      firstName: "Grace",
      lastName: "Hopper",
      occupation: "Admiral",
      bio: "Debugging since 1947.",
    });
  });

  it("accepts the snake_case keys first_name, last_name, date_of_birth and avatar_url", async () => {
    const user = await userWithCouplePhotos([OWN_IMAGE]);
    const session = await apiSession(user.email);
    const res = await updateCall(
      { first_name: "Grace", last_name: "Hopper", date_of_birth: "1985-12-09", avatar_url: OWN_IMAGE },
      bearer(session.access_token),
    );
    expect(res.status).toBe(200);
    expect(await row(user.id)).toMatchObject({ firstName: "Grace", lastName: "Hopper", dateOfBirth: "1985-12-09", avatarUrl: OWN_IMAGE });
  });

  it("removes the avatar a new one replaced, once saved, and nothing when the avatar stays", async () => {
    const avatarUrl = "/api/images/avatar/00000000000000000000000000000aaa.jpg";
    const user = await userWithCouplePhotos([OWN_IMAGE], { avatarUrl });
    const deleted: string[] = [];
    const storage = { put: async () => ({ url: "" }), read: async () => null, delete: async (key: string) => void deleted.push(key) };
    const db = await getDb();
    await updateProfile(db, user.id, { occupation: "Admiral" }, storage);
    expect(deleted).toEqual([]);
    await updateProfile(db, user.id, { avatarUrl: OWN_IMAGE }, storage);
    expect(deleted).toEqual(["avatar/00000000000000000000000000000aaa.jpg"]);
  });

  it("changes only the fields sent", async () => {
    const user = await createUser({ occupation: "Engineer" });
    const session = await apiSession(user.email);
    expect((await updateCall({ bio: "Hello there." }, bearer(session.access_token))).status).toBe(200);
    expect(await row(user.id)).toMatchObject({ firstName: "Ada", lastName: "Lovelace", occupation: "Engineer", bio: "Hello there." });
  });

  it.each([
    [{ email: "new@example.com" }],
    [{ passwordHash: "x" }],
    [{ password_hash: "x" }],
    [{ emailVerifiedAt: null }],
    [{ id: "00000000-0000-0000-0000-000000000000" }],
    [{ userId: "00000000-0000-0000-0000-000000000000", firstName: "Eve" }],
    [{ firstName: "Eve", nickname: "eve" }],
  ])("refuses unknown keys %j with 400 and changes nothing", async (body) => {
    const user = await createUser();
    const session = await apiSession(user.email);
    const res = await updateCall(body, bearer(session.access_token));
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_ERROR");
    const after = await row(user.id);
    expect(after).toMatchObject({ email: user.email, firstName: "Ada", passwordHash: user.passwordHash });
    expect(after.emailVerifiedAt).toEqual(user.emailVerifiedAt);
  });

  it("refuses an empty update with 400", async () => {
    const user = await createUser();
    const session = await apiSession(user.email);
    expect((await updateCall({}, bearer(session.access_token))).status).toBe(400);
  });

  it("refuses names over 50 characters with the spec's messages", async () => {
    const user = await createUser();
    const session = await apiSession(user.email);
    const res = await updateCall({ firstName: "x".repeat(51), lastName: "y".repeat(51) }, bearer(session.access_token));
    expect(res.status).toBe(400);
    expect(res.json.error.fields).toEqual({
      firstName: "First name must be no more than 50 characters",
      lastName: "Last name must be no more than 50 characters",
    });
    expect((await row(user.id)).firstName).toBe("Ada");
  });

  it("refuses an empty first name with 'First name is required'", async () => {
    const user = await createUser();
    const session = await apiSession(user.email);
    const res = await updateCall({ firstName: "   " }, bearer(session.access_token));
    expect(res.status).toBe(400);
    expect(res.json.error.fields.firstName).toBe("First name is required");
  });

  it("refuses a minor's date of birth with 'You must be at least 18 years old' and accepts turning 18 today", async () => {
    const user = await createUser();
    const session = await apiSession(user.email);
    const res = await updateCall({ dateOfBirth: minorBirthDate() }, bearer(session.access_token));
    expect(res.status).toBe(400);
    expect(res.json.error.fields.dateOfBirth).toBe("You must be at least 18 years old");
    expect((await row(user.id)).dateOfBirth).toBe("1990-05-17");
    expect((await updateCall({ date_of_birth: latestAdultBirthDate() }, bearer(session.access_token))).status).toBe(200);
  });

  it("refuses an impossible date of birth", async () => {
    const user = await createUser();
    const session = await apiSession(user.email);
    const res = await updateCall({ dateOfBirth: "2001-02-30" }, bearer(session.access_token));
    expect(res.status).toBe(400);
    expect(res.json.error.fields.dateOfBirth).toBe("Please enter a valid date");
  });

  it.each([
    "javascript:alert(1)",
    "http://cdn.example.com/a.jpg",
    "https://tracker.example.com/pixel.gif",
    "//evil.example.com/a.jpg",
    "data:image/png;base64,AAAA",
    "/uploads/grace.jpg",
    "/api/images/../../etc/passwd",
    "/api/images/avatar/not-a-key.jpg",
    "/api/images/couple-photo/fedcba9876543210fedcba9876543210.jpg",
  ])("refuses the avatar URL %j: only images the caller's own rows show", async (avatarUrl) => {
    const user = await createUser();
    const session = await apiSession(user.email);
    const res = await updateCall({ avatarUrl }, bearer(session.access_token));
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_ERROR");
    expect(res.json.error.fields.avatarUrl).toBe("Please upload the photo here: links to images elsewhere are not accepted");
    expect((await row(user.id)).avatarUrl).toBeNull();
  });

  it("lets a bearer client update without a CSRF token", async () => {
    const user = await createUser();
    const session = await apiSession(user.email);
    const res = await updateCall({ occupation: "Pilot" }, bearer(session.access_token));
    expect(res.status).toBe(200);
    expect((await row(user.id)).occupation).toBe("Pilot");
  });

  it("changes only the caller's own profile: user A's bearer token never touches user B", async () => {
    const a = await createUser();
    const b = await createUser({ firstName: "Bea" });
    const session = await apiSession(a.email);
    const res = await call(update, "PUT", `/api/v2/profile/update?userId=${b.id}&id=${b.id}`, {
      body: { firstName: "Changed" },
      headers: bearer(session.access_token),
      params: { id: b.id },
    });
    expect(res.status).toBe(200);
    expect(res.json.data.userId).toBe(a.id);
    expect((await row(a.id)).firstName).toBe("Changed");
    expect((await row(b.id)).firstName).toBe("Bea");
  });

  it("answers 401 without a session and to a revoked session", async () => {
    expect((await updateCall({ firstName: "Nobody" }, {})).status).toBe(401);
    const user = await createUser();
    const session = await browserSession(user.id);
    await revokeSession(await getDb(), session.sid);
    const res = await updateCall({ firstName: "Ghost" }, { cookie: session.cookie, "x-csrf-token": session.csrf });
    expect(res.status).toBe(401);
    expect((await row(user.id)).firstName).toBe("Ada");
  });

  it("answers 400, not 500, to a body that is not JSON", async () => {
    const user = await createUser();
    const session = await apiSession(user.email);
    const res = await call(update, "PUT", "/api/v2/profile/update", {
      rawBody: "{nope",
      headers: { ...bearer(session.access_token), "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
  });
});
