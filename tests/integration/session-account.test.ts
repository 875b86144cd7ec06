import { eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { couples, sessions } from "@/db/schema";
import { revokeAllSessions, revokeSession } from "@/lib/auth/sessions";
import { sessionCookieName } from "@/lib/auth/session-token";
import { browserSession, createUser } from "../support/api";

// The page's request cookies: what each test puts here.
let cookieHeader = "";
vi.mock("next/headers", () => ({
  cookies: async () => {
    const pairs = new Map(cookieHeader ? [cookieHeader.split(/=(.*)/s).slice(0, 2) as [string, string]] : []);
    return { get: (name: string) => (pairs.has(name) ? { name, value: pairs.get(name)! } : undefined) };
  },
  headers: async () => new Headers(),
}));

// Auth.js is not involved: guarded pages read the cookie themselves.
vi.mock("@/lib/auth/auth", () => ({ auth: async () => null }));

const { requireCompleteProfile, requireSignedIn } = await import("@/lib/auth/current-session");

/** A guard's answer (requireSignedIn unless told), or where it redirected. */
async function guardedPage(cookie: string, guard: () => Promise<unknown> = requireSignedIn) {
  cookieHeader = cookie;
  try {
    return await guard();
  } catch (error) {
    const digest = (error as { digest?: string }).digest ?? "";
    if (!digest.startsWith("NEXT_REDIRECT")) throw error;
    return { redirectedTo: digest.split(";")[2] };
  }
}

async function couple() {
  const a = await createUser({ occupation: "Architect" });
  const b = await createUser({ occupation: "Chef" });
  const [row] = await (
    await getDb()
  )
    .insert(couples)
    .values({ partner1Id: a.id, partner2Id: b.id, coupleName: "A & B" })
    .returning({ id: couples.id });
  return { a, b, coupleId: row!.id };
}

describe("requireSignedIn (guarded pages)", () => {
  it("answers the user, the flags read from the rows (not the cookie's copy) and the acting couple", async () => {
    const { a, b, coupleId } = await couple();
    // No moderators' action stands on them (the notices themselves: moderation-actions.test.ts).
    const none = { warning: null, restriction: null };
    const acting = (userId: string) =>
      expect.objectContaining({ userId, coupleId, coupleName: "A & B", partnerIds: [a.id, b.id], role: "member" });
    const sessionOfA = await browserSession(a.id);
    expect(await guardedPage(sessionOfA.cookie)).toEqual({
      userId: a.id,
      sessionId: sessionOfA.sid,
      emailVerified: true,
      profileComplete: true,
      isPartnerB: false,
      couple: acting(a.id),
      notices: none,
    });
    const sessionOfB = await browserSession(b.id);
    expect(await guardedPage(sessionOfB.cookie)).toEqual({
      userId: b.id,
      sessionId: sessionOfB.sid,
      emailVerified: true,
      profileComplete: true,
      isPartnerB: true,
      couple: acting(b.id),
      notices: none,
    });
    const alone = await createUser();
    const sessionAlone = await browserSession(alone.id);
    expect(await guardedPage(sessionAlone.cookie)).toEqual({
      userId: alone.id,
      sessionId: sessionAlone.sid,
      emailVerified: true,
      profileComplete: false,
      isPartnerB: false,
      couple: null,
      notices: none,
    });
  });

  it("requireCompleteProfile (the pages that read the couple) sends an account without a complete profile to onboarding", async () => {
    const { a } = await couple();
    expect(await guardedPage((await browserSession(a.id)).cookie, requireCompleteProfile)).toMatchObject({
      userId: a.id,
      profileComplete: true,
    });
    const alone = await createUser();
    expect(await guardedPage((await browserSession(alone.id)).cookie, requireCompleteProfile)).toEqual({ redirectedTo: "/onboarding" });
    expect(await guardedPage("", requireCompleteProfile)).toEqual({ redirectedTo: "/login" });
  });

  it("sends an unverified account to verify its e-mail", async () => {
    const user = await createUser({ emailVerifiedAt: null });
    expect(await guardedPage((await browserSession(user.id)).cookie)).toEqual({ redirectedTo: "/verify-email" });
  });

  it("sends to sign-in without a cookie, with a broken one, and at once after sign-out or a password change", async () => {
    expect(await guardedPage("")).toEqual({ redirectedTo: "/login" });
    const user = await createUser();
    const signedOut = await browserSession(user.id);
    expect(await guardedPage(signedOut.cookie)).toMatchObject({ userId: user.id });
    expect(await guardedPage(`${signedOut.cookie.slice(0, -6)}AAAAAA`)).toEqual({ redirectedTo: "/login" });
    await revokeSession(await getDb(), signedOut.sid);
    expect(await guardedPage(signedOut.cookie)).toEqual({ redirectedTo: "/login" });

    const other = await browserSession(user.id);
    expect(await guardedPage(other.cookie)).toMatchObject({ userId: user.id });
    await revokeAllSessions(await getDb(), user.id);
    expect(await guardedPage(other.cookie)).toEqual({ redirectedTo: "/login" });
  });

  it("refuses an expired session row, and a session presented under another user's id", async () => {
    const user = await createUser();
    const expired = await browserSession(user.id);
    await (
      await getDb()
    )
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, expired.sid));
    expect(await guardedPage(expired.cookie)).toEqual({ redirectedTo: "/login" });

    const someoneElse = await createUser();
    const { sid } = await browserSession(user.id);
    const claims = { sub: someoneElse.id, sid, emailVerified: true, profileComplete: true, isPartnerB: false };
    const forged = await encode({ token: claims, secret: process.env.AUTH_SECRET!, salt: sessionCookieName() });
    expect(await guardedPage(`${sessionCookieName()}=${forged}`)).toEqual({ redirectedTo: "/login" });
  });
});
