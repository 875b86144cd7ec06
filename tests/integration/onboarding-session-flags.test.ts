import { decode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { edgeGuard } from "@/lib/auth/guard";
import { sessionCookieName } from "@/lib/auth/session-token";
import { createUser } from "../support/api";
import { apiSession, bearer } from "../support/flows";
import { postStep1, postStep2, signedIn } from "../support/onboarding";

type Answer = { headers: Headers };

/** The session cookie an answer sets, decoded as middleware.ts reads it; null when it sets none. */
async function renewedClaims(answer: Answer) {
  const name = sessionCookieName();
  const set = answer.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (!set) return null;
  const value = set.slice(name.length + 1).split(";")[0]!;
  return decode({ token: value, secret: process.env.AUTH_SECRET!, salt: name });
}

const guardUser = (claims: Record<string, unknown>) => ({
  emailVerified: claims.emailVerified === true,
  profileComplete: claims.profileComplete === true,
  isPartnerB: claims.isPartnerB === true,
});

describe("session flags after onboarding through the REST calls", () => {
  it("renews the session cookie the calls were made with, so the guard lets /profile through after step 2", async () => {
    const { user, headers } = await signedIn();
    const step1 = await postStep1(headers);
    expect(step1.status).toBe(200);
    expect(await renewedClaims(step1)).toMatchObject({ sub: user.id, emailVerified: true, profileComplete: false });

    const step2 = await postStep2(headers);
    expect(step2.status).toBe(201);
    const claims = await renewedClaims(step2);
    expect(claims).toMatchObject({ sub: user.id, emailVerified: true, profileComplete: true, isPartnerB: false });
    // The same session, kept alive as long as a fresh sign-in's.
    const old = await decode({
      token: headers.cookie.split("=").slice(1).join("="),
      secret: process.env.AUTH_SECRET!,
      salt: sessionCookieName(),
    });
    expect(claims!.sid).toBe(old!.sid);
    expect(claims!.exp).toBeGreaterThan(Date.now() / 1000 + 13 * 24 * 60 * 60);
    expect(edgeGuard("/profile", new URLSearchParams(), guardUser(claims!))).toEqual({ action: "next" });
  });

  it("sets no cookie for a call made with a bearer token", async () => {
    const user = await createUser();
    const { access_token } = await apiSession(user.email);
    const step1 = await postStep1(bearer(access_token));
    expect(step1.status).toBe(200);
    expect(await renewedClaims(step1)).toBeNull();
  });
});
