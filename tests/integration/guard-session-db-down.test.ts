import { encode } from "next-auth/jwt";
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import middleware from "@/middleware";
import { BROWSER_SESSION_SECONDS, sessionCookieName } from "@/lib/auth/session-token";

// The database cannot be reached: the session row's read fails as a refused connection does.
vi.mock("@/lib/auth/sessions", async (original) => ({
  ...(await original<typeof import("@/lib/auth/sessions")>()),
  activeSessionUser: vi.fn(async () => {
    throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
  }),
}));

/**
 * The route guard reads the session row only where the cookie alone would send its holder on
 * (/, /register, /profile-setup). With the database out of reach it answers from the cookie, as it
 * does everywhere else, and keeps it: no bare 500 from the guard, and no member signed out by an outage.
 */
const name = sessionCookieName();
const claims = {
  sub: "3f1c0a56-7f55-4a43-9bd2-5c4c1b0b6a11",
  sid: "session-1",
  emailVerified: true,
  profileComplete: true,
  isPartnerB: false,
};
const visit = async (path: string) => {
  const cookie = `${name}=${await encode({ token: claims, secret: process.env.AUTH_SECRET!, salt: name, maxAge: BROWSER_SESSION_SECONDS })}`;
  return middleware(new NextRequest(`http://localhost:3000${path}`, { headers: { cookie } }));
};
afterEach(() => vi.restoreAllMocks());

describe("the route guard with the database out of reach", () => {
  it("answers / and /register from the cookie and keeps it", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    for (const path of ["/", "/register"]) {
      const response = await visit(path);
      expect(new URL(response.headers.get("location")!).pathname, path).toBe("/dashboard");
      expect(response.headers.getSetCookie(), path).toEqual([]);
    }
  });
});
