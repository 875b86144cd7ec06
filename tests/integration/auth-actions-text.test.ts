/**
 * The identity forms' server actions (app/(auth)/actions.ts) refuse what their REST calls refuse:
 * a password with a control character or a lone surrogate (refuseUnsafeText, lib/http/errors.ts)
 * is a VALIDATION_ERROR on the form too, with nothing written, so no account gets a password the
 * API's sign-in then refuses, and no two passwords hash alike (a lone surrogate is hashed as U+FFFD).
 */
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { POST as register } from "@/app/api/auth/register/route";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { authenticate } from "@/lib/auth/credentials";
import { queuePasswordReset } from "@/lib/auth/password-reset";
import { call, createUser, freshAddress, PASSWORD } from "../support/api";
import { linkInLatestMail } from "../support/flows";

vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-forwarded-for": "198.51.100.23" }),
  cookies: async () => ({ get: () => undefined, set: () => undefined, delete: () => undefined }),
}));

// Auth.js is not involved: the refusals come before any sign-in or session.
vi.mock("@/lib/auth/auth", () => ({ auth: async () => null, SignInRefused: class extends Error {} }));
vi.mock("@/lib/auth/browser-session", () => ({ endBrowserSession: async () => undefined, signInReplacingSession: async () => undefined }));

const { registerAction, resetPasswordAction } = await import("@/app/(auth)/actions");

const UNSAFE_PASSWORDS = ["Str0ng!Pass\u0007word", "Str0ng!Pass\u0000word", "Str0ng!Pass\ud800word"];

const registration = (email: string, password: string) => ({
  email,
  password,
  firstName: "Marisol",
  lastName: "Okafor",
  dateOfBirth: "1992-03-04",
});

describe("the identity forms' server actions", () => {
  it("refuse a new account's password with a control character or a lone surrogate, as POST /api/auth/register does", async () => {
    const db = await getDb();
    for (const [index, password] of UNSAFE_PASSWORDS.entries()) {
      const email = `unsafe-password-${index}-${Date.now()}@example.com`;
      const rest = await call(register, "POST", "/api/auth/register", {
        body: registration(email, password),
        headers: { "x-forwarded-for": freshAddress() },
      });
      expect(rest.status, JSON.stringify(password)).toBe(400);
      const form = await registerAction(registration(email, password));
      expect(form, JSON.stringify(password)).toMatchObject({ ok: false, code: "VALIDATION_ERROR" });
      expect(form.ok === false && form.fieldErrors?.password).toBe("Password contains characters that are not allowed");
      expect(await db.select({ id: users.id }).from(users).where(eq(users.email, email))).toHaveLength(0);
    }
  });

  it("read a long list sent beside the fields (up to Next's 1 MB body) without an internal error", async () => {
    const user = await createUser();
    // 200,000 entries: more than a spread call takes as arguments.
    const form = await registerAction({ ...registration(user.email, "Str0ng!Passw0rd"), extra: Array<number>(200_000).fill(0) });
    expect(form).toMatchObject({ ok: false, code: "EMAIL_EXISTS" });
  });

  it("refuse such a password on reset, and the old password still signs in", async () => {
    const user = await createUser();
    const db = await getDb();
    for (const password of UNSAFE_PASSWORDS) {
      await queuePasswordReset(db, user.email);
      const token = (await linkInLatestMail(user.email)).searchParams.get("token")!;
      expect(await resetPasswordAction(token, password), JSON.stringify(password)).toMatchObject({ ok: false, code: "VALIDATION_ERROR" });
    }
    await expect(authenticate(db, { email: user.email, password: PASSWORD }, { clientAddress: freshAddress() })).resolves.toMatchObject({
      id: user.id,
    });
  });
});
