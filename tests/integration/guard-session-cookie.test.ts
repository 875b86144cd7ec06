import { decode, encode } from "next-auth/jwt";
import { NextRequest, NextResponse } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import middleware from "@/middleware";
import { getDb } from "@/db/client";
import { SESSION_RENEW_AFTER_SECONDS } from "@/lib/auth/guard-session";
import { createSession, revokeSession } from "@/lib/auth/sessions";
import { BROWSER_SESSION_SECONDS, sessionCookieName } from "@/lib/auth/session-token";
import { createUser } from "../support/api";

/**
 * The route guard's reading of the session cookie (middleware.ts, lib/auth/guard-session): the
 * claims decide the redirect, and the cookie is re-issued only once it is a day old, on the pages
 * under the signed-in layouts.
 */
const name = sessionCookieName();
const secret = () => process.env.AUTH_SECRET!;
const claims = {
  sub: "3f1c0a56-7f55-4a43-9bd2-5c4c1b0b6a11",
  sid: "session-1",
  emailVerified: true,
  profileComplete: true,
  isPartnerB: false,
};

/** A cookie value issued `ageSeconds` ago (its iat and exp as encode set them then). */
async function issued(ageSeconds: number, token: Record<string, unknown> = claims): Promise<string> {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - ageSeconds * 1000 });
  try {
    return await encode({ token, secret: secret(), salt: name, maxAge: BROWSER_SESSION_SECONDS });
  } finally {
    vi.useRealTimers();
  }
}
afterEach(() => vi.useRealTimers());

/** The claims of a signed-in member's live session row. */
async function liveClaims() {
  const user = await createUser();
  return { ...claims, sub: user.id, sid: await createSession(await getDb(), user.id, "browser") };
}

const visit = (path: string, cookie?: string) =>
  middleware(new NextRequest(`http://localhost:3000${path}`, { headers: cookie ? { cookie } : {} }));
const setCookies = (response: Response) => response.headers.getSetCookie();

describe("the route guard's session cookie", () => {
  it("lets a fresh cookie through to a signed-in page without setting any cookie", async () => {
    const response = await visit("/dashboard", `${name}=${await issued(60)}`);
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect(setCookies(response)).toEqual([]);
  });

  it("re-issues a day-old cookie with the same claims and a fresh 14-day expiry", async () => {
    const response = await visit("/dashboard", `${name}=${await issued(SESSION_RENEW_AFTER_SECONDS + 60)}`);
    expect(response.headers.get("location")).toBeNull();
    const [set, ...others] = setCookies(response);
    expect(others).toEqual([]);
    expect(set).toMatch(new RegExp(`^${name}=[^;]+; Path=/; .*Max-Age=${BROWSER_SESSION_SECONDS}; HttpOnly; SameSite=lax`, "i"));
    const renewed = await decode({ token: set!.slice(name.length + 1).split(";")[0]!, secret: secret(), salt: name });
    expect(renewed).toMatchObject(claims);
    expect(renewed!.exp).toBeGreaterThan(Date.now() / 1000 + BROWSER_SESSION_SECONDS - 60);
  });

  it("keeps a day-old cookie as it is on a page that does not extend the session row (a public page)", async () => {
    const dayOld = `${name}=${await issued(SESSION_RENEW_AFTER_SECONDS + 60)}`;
    for (const path of ["/about", "/login", "/register?clear=true", "/signout"]) {
      const response = await visit(path, dayOld);
      expect(response.headers.get("location"), path).toBeNull();
      expect(setCookies(response), path).toEqual([]);
    }
  });

  it("reads the claims for the guard: / sends an unfinished profile to onboarding, a finished one to the dashboard", async () => {
    const live = await liveClaims();
    const finished = await visit("/", `${name}=${await issued(60, live)}`);
    expect(new URL(finished.headers.get("location")!).pathname).toBe("/dashboard");
    const response = await visit("/", `${name}=${await issued(60, { ...live, profileComplete: false })}`);
    expect(new URL(response.headers.get("location")!).pathname).toBe("/onboarding");
  });

  it("sends an ended session's holder to the page they asked for, not on by the cookie alone, and clears the cookie", async () => {
    const live = await liveClaims();
    const cookie = `${name}=${await issued(60, live)}`;
    expect(new URL((await visit("/register", cookie)).headers.get("location")!).pathname).toBe("/dashboard");
    await revokeSession(await getDb(), live.sid);
    const register = await visit("/register", cookie);
    expect(register.headers.get("location")).toBeNull();
    expect(setCookies(register)).toEqual([expect.stringMatching(new RegExp(`^${name}=; .*Max-Age=0`, "i"))]);
    expect(new URL((await visit("/", cookie)).headers.get("location")!).pathname).toBe("/login");
    const setup = new URL((await visit("/profile-setup", cookie)).headers.get("location")!);
    expect(`${setup.pathname}${setup.search}`).toBe("/login?from=%2Fonboarding");
  });

  it("reads a cookie split into Auth.js's chunks", async () => {
    const value = await issued(60);
    const half = Math.floor(value.length / 2);
    const response = await visit("/dashboard", `${name}.1=${value.slice(half)}; ${name}.0=${value.slice(0, half)}`);
    expect(response.headers.get("location")).toBeNull();
  });

  it("treats an expired, tampered or foreign cookie as nobody, sends them to sign in and clears it", async () => {
    const expired = await issued(BROWSER_SESSION_SECONDS + 60);
    const fresh = await issued(60);
    // The last part is the authentication tag: any change to it fails the decryption.
    const tampered = `${fresh.slice(0, -4)}${fresh.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
    const foreign = await encode({ token: claims, secret: "another-secret-another-secret-0123456789", salt: name });
    const noSession = await issued(60, { sub: claims.sub });
    for (const value of [expired, tampered, foreign, noSession, "not-a-token"]) {
      const response = await visit("/dashboard", `${name}=${value}`);
      expect(new URL(response.headers.get("location")!).pathname).toBe("/login");
      expect(setCookies(response)).toEqual([expect.stringMatching(new RegExp(`^${name}=; .*(Max-Age=0|Expires=Thu, 01 Jan 1970)`, "i"))]);
    }
  });

  it("renews a chunked cookie whole and clears its chunks", async () => {
    const value = await issued(SESSION_RENEW_AFTER_SECONDS + 60);
    const half = Math.floor(value.length / 2);
    const response = await visit("/dashboard", `${name}.0=${value.slice(0, half)}; ${name}.1=${value.slice(half)}`);
    const set = setCookies(response);
    expect(set).toHaveLength(3);
    expect(set.filter((c) => c.startsWith(`${name}.`))).toEqual([
      expect.stringMatching(/^[^=]+\.0=; .*Max-Age=0/),
      expect.stringMatching(/^[^=]+\.1=; .*Max-Age=0/),
    ]);
    const whole = set.find((c) => c.startsWith(`${name}=`))!;
    expect(await decode({ token: whole.slice(name.length + 1).split(";")[0]!, secret: secret(), salt: name })).toMatchObject(claims);
  });

  it("on https, names the cookie __Secure- and marks it Secure when renewing and when clearing (else the browser ignores both)", async () => {
    vi.stubEnv("APP_URL", "https://couples.example");
    vi.resetModules();
    try {
      const { default: secureMiddleware } = await import("@/middleware");
      const secureName = (await import("@/lib/auth/session-token")).sessionCookieName();
      expect(secureName).toBe("__Secure-authjs.session-token");
      const oldValue = await encode({ token: claims, secret: secret(), salt: secureName, maxAge: BROWSER_SESSION_SECONDS });
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + (SESSION_RENEW_AFTER_SECONDS + 60) * 1000 });
      const renewed = await secureMiddleware(
        new NextRequest("https://couples.example/dashboard", { headers: { cookie: `${secureName}=${oldValue}` } }),
      );
      vi.useRealTimers();
      expect(setCookies(renewed)).toEqual([expect.stringMatching(new RegExp(`^${secureName}=[^;]+; Path=/; .*Secure`))]);
      const cleared = await secureMiddleware(
        new NextRequest("https://couples.example/dashboard", { headers: { cookie: `${secureName}=not-a-token` } }),
      );
      expect(setCookies(cleared)).toEqual([expect.stringMatching(new RegExp(`^${secureName}=; Path=/; .*Max-Age=0; .*Secure`))]);
      // As the account's deletion clears it, whole and in chunks.
      const { clearSessionCookie } = await import("@/lib/auth/guard-session");
      const deleted = clearSessionCookie(
        new NextRequest("https://couples.example/api/account", { headers: { cookie: `${secureName}.0=a; ${secureName}.1=b` } }),
        NextResponse.json({}),
      );
      expect(setCookies(deleted)).toEqual([
        expect.stringMatching(new RegExp(`^${secureName}\\.0=; Path=/; .*Max-Age=0; .*Secure`)),
        expect.stringMatching(new RegExp(`^${secureName}\\.1=; Path=/; .*Max-Age=0; .*Secure`)),
      ]);
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });

  it("sets no cookie for a visitor without one", async () => {
    const response = await visit("/dashboard");
    expect(new URL(response.headers.get("location")!).pathname).toBe("/login");
    expect(setCookies(response)).toEqual([]);
  });
});
