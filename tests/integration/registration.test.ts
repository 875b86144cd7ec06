import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as register } from "@/app/api/auth/register/route";
import { GET as outbox } from "@/app/api/dev/outbox/route";
import { getDb } from "@/db/client";
import { userTokens, users } from "@/db/schema";
import { latestAdultBirthDate } from "@/lib/auth/rules";
import { AppError } from "@/lib/errors";
import { INVITE_CODE_ELSEWHERE } from "@/lib/registration/schemas";
import { registerAccount } from "@/lib/registration/service";
import { call, freshAddress, FROM_LOOPBACK } from "../support/api";
import { failingDb } from "../support/failing-db";

const valid = (email: string) => ({
  email,
  password: "Str0ng!Passw0rd",
  firstName: "Marisol",
  lastName: "Okafor",
  dateOfBirth: "1992-03-04",
});

describe("POST /api/auth/register", () => {
  it("creates an unverified account and queues a verification e-mail with an absolute link", async () => {
    const res = await call(register, "POST", "/api/auth/register", { body: valid("Marisol@Example.com ") });
    expect(res.status).toBe(201);
    expect(res.json.message).toBe("Please check your email to verify your account.");
    const db = await getDb();
    const [user] = await db.select().from(users).where(eq(users.email, "marisol@example.com"));
    expect(user?.emailVerifiedAt).toBeNull();
    expect(user?.passwordHash).toMatch(/^\$argon2id\$/);
    const mail = await call(outbox, "GET", "/api/dev/outbox?to=marisol@example.com", { headers: FROM_LOOPBACK });
    expect(mail.json.messages).toHaveLength(1);
    expect(mail.json.messages[0].text).toMatch(/http:\/\/localhost:3000\/verify-email\?token=[\w-]{43}&email=marisol%40example.com/);
    expect(JSON.stringify(res.json)).not.toContain("Str0ng!Passw0rd");
  });

  it("refuses an invitation code with a clear 400 and creates nothing: an invitation is accepted from its link, never at registration", async () => {
    const email = `invited-${Date.now()}@example.com`;
    const res = await call(register, "POST", "/api/auth/register", { body: { ...valid(email), inviteCode: "an-invitation-token" } });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_ERROR");
    expect(res.json.error.fields).toEqual({ inviteCode: INVITE_CODE_ELSEWHERE });
    const db = await getDb();
    expect(await db.select({ id: users.id }).from(users).where(eq(users.email, email))).toEqual([]);
  });

  it("refuses an e-mail that already has an account, whatever its case", async () => {
    await call(register, "POST", "/api/auth/register", { body: valid("twice@example.com") });
    const res = await call(register, "POST", "/api/auth/register", { body: valid("TWICE@example.com") });
    expect(res.status).toBe(409);
    expect(res.json.error).toEqual({ code: "EMAIL_EXISTS", message: "An account with this email already exists. Please sign in instead." });
  });

  it("refuses an address with an invisible character, which would read as another account's address", async () => {
    await call(register, "POST", "/api/auth/register", { body: valid("lookalike@example.com") });
    for (const email of ["lookalike@example.com\u200b", "look\u00adalike@example.com", "\u2060lookalike@example.com"]) {
      const res = await call(register, "POST", "/api/auth/register", { body: valid(email) });
      expect(res.status).toBe(400);
      expect(res.json.error.fields).toEqual({ email: "Please enter a valid email address" });
    }
    const db = await getDb();
    expect(await db.select({ email: users.email }).from(users).where(eq(users.firstName, "Marisol"))).not.toContainEqual({
      email: expect.stringMatching(/\p{Cf}/u),
    });
  });

  it("refuses minors, weak passwords and missing names with the spec's messages", async () => {
    const res = await call(register, "POST", "/api/auth/register", {
      body: {
        ...valid("kid@example.com"),
        dateOfBirth: latestAdultBirthDate().replace(/^(\d{4})/, (y) => String(Number(y) + 1)),
        password: "short",
        firstName: "",
      },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_ERROR");
    expect(res.json.error.fields).toMatchObject({
      dateOfBirth: "You must be at least 18 years old",
      password: "Password must be at least 8 characters",
      firstName: "First name is required",
    });
    const db = await getDb();
    expect(await db.select().from(users).where(eq(users.email, "kid@example.com"))).toHaveLength(0);
  });

  it("accepts someone who turns 18 today", async () => {
    const res = await call(register, "POST", "/api/auth/register", {
      body: { ...valid("today18@example.com"), dateOfBirth: latestAdultBirthDate() },
    });
    expect(res.status).toBe(201);
  });

  it("accepts a 64-character password and does not truncate it", async () => {
    const long = `Aa1!${"x".repeat(60)}`;
    expect(long).toHaveLength(64);
    const res = await call(register, "POST", "/api/auth/register", { body: { ...valid("long@example.com"), password: long } });
    expect(res.status).toBe(201);
    const { verifyPassword } = await import("@/lib/auth/password");
    const db = await getDb();
    const [user] = await db.select().from(users).where(eq(users.email, "long@example.com"));
    expect(await verifyPassword(user!.passwordHash, long)).toBe(true);
    expect(await verifyPassword(user!.passwordHash, long.slice(0, 63))).toBe(false);
  });

  it("answers 400, not 500, to a body that is not JSON", async () => {
    const res = await call(register, "POST", "/api/auth/register", {
      rawBody: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_ERROR");
  });

  it("limits registrations from one address with 429 and Retry-After", async () => {
    const address = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await call(register, "POST", "/api/auth/register", {
        body: valid(`burst${i}@example.com`),
        headers: { "x-forwarded-for": address },
      });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.json.error.message).toBe("Too many registration attempts. Please try again later.");
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      }
    }
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it("leaves no partial account when a later step of the registration fails", async () => {
    const db = await getDb();
    // The outbox insert fails inside the transaction: the user row must roll back with it.
    const failing = await failingDb();
    await expect(registerAccount(failing, valid("half@example.com"), { clientAddress: freshAddress() })).rejects.toThrow();
    expect(await db.select().from(users).where(eq(users.email, "half@example.com"))).toHaveLength(0);
    const tokens = await db.select().from(userTokens);
    expect(tokens.every((t) => t.userId)).toBe(true);
    // And the same address can register properly afterwards.
    await expect(registerAccount(db, valid("half@example.com"), { clientAddress: freshAddress() })).resolves.toMatchObject({
      user: { email: "half@example.com" },
    });
  });

  it("lets only one of two simultaneous registrations of one e-mail through", async () => {
    const db = await getDb();
    const results = await Promise.allSettled([
      registerAccount(db, valid("race@example.com"), { clientAddress: freshAddress() }),
      registerAccount(db, valid("race@example.com"), { clientAddress: freshAddress() }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(AppError);
    expect(rejected.reason.code).toBe("EMAIL_EXISTS");
  });
});
