import { describe, expect, it } from "vitest";
import {
  type GuardUser,
  cookieMovesVisitor,
  detectFlow,
  edgeGuard,
  guard,
  postAuthDestination,
  routeKind,
  safeOrigin,
  underSignedInLayout,
} from "@/lib/auth/guard";

const q = (query = "") => new URLSearchParams(query);
const complete: GuardUser = { emailVerified: true, profileComplete: true, isPartnerB: false };
const incomplete: GuardUser = { emailVerified: true, profileComplete: false, isPartnerB: false };
const unverified: GuardUser = { emailVerified: false, profileComplete: false, isPartnerB: false };
const unverifiedComplete: GuardUser = { emailVerified: false, profileComplete: true, isPartnerB: false };
const partnerB: GuardUser = { emailVerified: true, profileComplete: false, isPartnerB: true };

const next = { action: "next" };
const to = (path: string) => ({ action: "redirect", to: path });
/** The `from` a sign-in redirect remembers. */
const fromOf = (decision: ReturnType<typeof guard>) => {
  expect(decision.action).toBe("redirect");
  const url = new URL((decision as { to: string }).to, "http://localhost");
  expect(url.pathname).toBe("/login");
  return url.searchParams.get("from");
};

const ONBOARDING_ROUTES = ["/onboarding", "/onboarding/step2", "/onboarding/a/b", "/invite-partner", "/partner-setup"];
const PROFILE_ROUTES = [
  "/dashboard",
  "/profile",
  "/profile/abc",
  "/discover",
  "/events",
  "/events/create",
  "/messages",
  "/messages/123",
  "/forum",
  "/forum/local",
  "/forum/post/123",
  "/settings",
  "/directory",
  "/notifications",
];
const PUBLIC_ROUTES = [
  "/login",
  "/register",
  "/forgot-password",
  "/reset-password",
  "/signout",
  "/verify-email",
  "/invitation/accept",
  "/about",
  "/terms",
  "/privacy",
  "/guidelines",
];

describe("route guard: /", () => {
  it("sends a signed-out visitor to /login", () => {
    expect(guard("/", q(), null)).toEqual(to("/login"));
  });

  it("sends a signed-in user to /dashboard with a complete profile, else /onboarding", () => {
    expect(guard("/", q(), complete)).toEqual(to("/dashboard"));
    expect(guard("/", q(), incomplete)).toEqual(to("/onboarding"));
  });
});

describe("route guard: unknown paths", () => {
  it.each(["/nope", "/admin", "/profile/abc/edit", "/forum/post", "/forum/post/1/2", "/onboardingx", "/api-docs", "/dashboard2"])(
    "redirects %s to / for anyone",
    (path) => {
      expect(guard(path, q(), null)).toEqual(to("/"));
      expect(guard(path, q(), complete)).toEqual(to("/"));
    },
  );
});

describe("route guard: public pages", () => {
  it.each(PUBLIC_ROUTES)("lets a signed-out visitor open %s", (path) => {
    expect(guard(path, q(), null)).toEqual(next);
  });

  it.each(PUBLIC_ROUTES.filter((p) => p !== "/register"))("lets a signed-in user open %s too", (path) => {
    expect(guard(path, q(), complete)).toEqual(next);
    expect(guard(path, q(), unverified)).toEqual(next);
  });
});

describe("route guard: /register for a signed-in user", () => {
  it("sends a user with a complete profile to /dashboard", () => {
    expect(guard("/register", q(), complete)).toEqual(to("/dashboard"));
  });

  it("sends partner B to /dashboard even with an incomplete profile", () => {
    expect(guard("/register", q(), partnerB)).toEqual(to("/dashboard"));
  });

  it("sends anyone else to /onboarding", () => {
    expect(guard("/register", q(), incomplete)).toEqual(to("/onboarding"));
    expect(guard("/register", q(), unverified)).toEqual(to("/onboarding"));
  });

  it("lets the user stay with clear=true or an invite parameter", () => {
    expect(guard("/register", q("clear=true"), complete)).toEqual(next);
    expect(guard("/register", q("invite=abc"), complete)).toEqual(next);
    expect(guard("/register", q("invite=abc"), incomplete)).toEqual(next);
  });

  it("does not treat clear=false or clear=1 as clearing", () => {
    expect(guard("/register", q("clear=false"), complete)).toEqual(to("/dashboard"));
    expect(guard("/register", q("clear=1"), incomplete)).toEqual(to("/onboarding"));
  });
});

describe("route guard: where the cookie alone sends its holder on (the session row is read first)", () => {
  it("is /, /register and /profile-setup, where a signed-in user is sent elsewhere than a visitor", () => {
    for (const path of ["/", "/register", "/profile-setup"]) expect(cookieMovesVisitor(path, q(), complete), path).toBe(true);
    expect(cookieMovesVisitor("/register", q(), incomplete)).toBe(true);
  });

  it("is no page a signed-in user and a visitor are answered alike, nor a page under the signed-in layouts (they read the row)", () => {
    for (const path of ["/login", "/about", "/nowhere", "/signout", "/dashboard", "/onboarding"])
      expect(cookieMovesVisitor(path, q(), complete), path).toBe(false);
    expect(cookieMovesVisitor("/register", q("clear=true"), complete)).toBe(false);
    expect(cookieMovesVisitor("/register", q("invite=abc"), complete)).toBe(false);
  });
});

describe("route guard: /profile-setup", () => {
  it("redirects a signed-in user to /onboarding, whatever the state of the profile", () => {
    expect(guard("/profile-setup", q(), incomplete)).toEqual(to("/onboarding"));
    expect(guard("/profile-setup", q(), complete)).toEqual(to("/onboarding"));
  });

  it("sends a signed-out visitor to sign in, remembering /onboarding", () => {
    expect(fromOf(guard("/profile-setup", q(), null))).toBe("/onboarding");
  });
});

describe("route guard: guarded pages, signed out", () => {
  it.each([...ONBOARDING_ROUTES, ...PROFILE_ROUTES])("sends %s to /login remembering the origin", (path) => {
    expect(fromOf(guard(path, q(), null))).toBe(path);
  });

  it("remembers the query string with the path, encoded as one parameter", () => {
    const decision = guard("/forum/post/123", q("sort=new&page=2"), null);
    expect(fromOf(decision)).toBe("/forum/post/123?sort=new&page=2");
    expect((decision as { to: string }).to).toBe("/login?from=%2Fforum%2Fpost%2F123%3Fsort%3Dnew%26page%3D2");
  });
});

describe("route guard: e-mail verification", () => {
  it.each([...ONBOARDING_ROUTES, ...PROFILE_ROUTES])("sends an unverified user on %s to /verify-email", (path) => {
    expect(guard(path, q(), unverified)).toEqual(to("/verify-email"));
    expect(guard(path, q(), unverifiedComplete)).toEqual(to("/verify-email"));
  });
});

describe("route guard: onboarding routes", () => {
  it.each(ONBOARDING_ROUTES)("lets a verified user without a complete profile open %s", (path) => {
    expect(guard(path, q(), incomplete)).toEqual(next);
    expect(guard(path, q(), complete)).toEqual(next);
  });
});

describe("route guard: routes needing a complete profile", () => {
  it.each(PROFILE_ROUTES)("sends %s to /onboarding while the profile is incomplete", (path) => {
    expect(guard(path, q(), incomplete)).toEqual(to("/onboarding"));
    expect(guard(path, q(), partnerB)).toEqual(to("/onboarding"));
  });

  it.each(PROFILE_ROUTES)("lets %s through once the profile is complete", (path) => {
    expect(guard(path, q(), complete)).toEqual(next);
  });

  it("ignores a trailing slash", () => {
    expect(guard("/dashboard/", q(), complete)).toEqual(next);
    expect(guard("/dashboard/", q(), incomplete)).toEqual(to("/onboarding"));
  });
});

describe("routeKind", () => {
  it("classifies the spec's route table", () => {
    expect(routeKind("/")).toBe("root");
    expect(routeKind("/login")).toBe("public");
    expect(routeKind("/profile-setup")).toBe("profile-setup");
    expect(routeKind("/onboarding/step1")).toBe("onboarding");
    expect(routeKind("/profile/0b6f4a58-2d9e-4a8c-9b77-3d3c1b8a1f00")).toBe("profile-required");
    expect(routeKind("/elsewhere")).toBe("unknown");
  });
});

describe("detectFlow", () => {
  it("calls /register with an invite parameter an invitation flow", () => {
    expect(detectFlow("/register", q("invite=abc"))).toBe("invitation");
  });

  it("calls /invitation/accept with a token a partner_b flow", () => {
    expect(detectFlow("/invitation/accept", q("token=abc"))).toBe("partner_b");
  });

  it("calls everything else standard", () => {
    expect(detectFlow("/register", q())).toBe("standard");
    expect(detectFlow("/register", q("clear=true"))).toBe("standard");
    expect(detectFlow("/invitation/accept", q())).toBe("standard");
    expect(detectFlow("/login", q("invite=abc&token=abc"))).toBe("standard");
  });
});

describe("postAuthDestination", () => {
  it("is /dashboard for a complete profile and /onboarding otherwise", () => {
    expect(postAuthDestination(complete)).toBe("/dashboard");
    expect(postAuthDestination(incomplete)).toBe("/onboarding");
  });
});

describe("safeOrigin", () => {
  it.each([
    ["//evil.com", "protocol-relative URL"],
    ["//evil.com/dashboard", "protocol-relative URL with a known path"],
    ["/\\evil.com", "backslash that browsers read as a slash"],
    ["http://x", "absolute URL"],
    ["https://evil.com/dashboard", "absolute URL with a known path"],
    ["javascript:alert(1)", "script URL"],
    ["dashboard", "relative path"],
    ["", "empty value"],
    ["/login", "public page"],
    ["/register?clear=true", "public page with a query"],
    ["/", "root, which would only redirect again"],
    ["/nope", "unknown page"],
  ])("rejects %j (%s)", (from) => {
    expect(safeOrigin(from)).toBeNull();
  });

  it("rejects a missing value", () => {
    expect(safeOrigin(null)).toBeNull();
    expect(safeOrigin(undefined)).toBeNull();
  });

  it("accepts guarded pages, keeping the query and fragment", () => {
    expect(safeOrigin("/dashboard?x=1")).toBe("/dashboard?x=1");
    expect(safeOrigin("/forum/post/123#reply-4")).toBe("/forum/post/123#reply-4");
    expect(safeOrigin("/onboarding")).toBe("/onboarding");
    expect(safeOrigin("/invite-partner")).toBe("/invite-partner");
  });
});

describe("safeOrigin and postAuthDestination for invitation links", () => {
  const links = ["/register?invite=abc", "/invitation/accept?token=abc", "/invitation/accept?invite=abc"];

  it.each(links)("accepts %s, so signing in from an invitation comes back to it", (link) => {
    expect(safeOrigin(link)).toBe(link);
  });

  it.each([
    "/register",
    "/register?clear=true",
    "/register?inviter=abc",
    "/invitation/accept",
    "/invitation/accept?tokens=abc",
    "/invitation/other?token=abc",
  ])("rejects %s (not an invitation link)", (path) => {
    expect(safeOrigin(path)).toBeNull();
  });

  it.each(links)("goes back to %s after sign-in whether or not the profile is complete", (link) => {
    expect(postAuthDestination({ profileComplete: false }, link)).toBe(link);
    expect(postAuthDestination({ profileComplete: true }, link)).toBe(link);
  });

  it("still sends an incomplete profile to onboarding from any other page", () => {
    expect(postAuthDestination({ profileComplete: false }, "/dashboard")).toBe("/onboarding");
    expect(postAuthDestination({ profileComplete: true }, "/register?clear=true")).toBe("/dashboard");
  });
});

describe("safeOrigin against paths that resolve off the site", () => {
  it.each(["/onboarding/../..//evil.com", "/dashboard/..//evil.com", "/%2e%2e//evil.com", "/dashboard\\..\\evil"])("refuses %s", (from) => {
    expect(safeOrigin(from)).toBeNull();
  });
  it("returns the resolved path and query it accepts", () => {
    expect(safeOrigin("/forum/../dashboard?tab=new")).toBe("/dashboard?tab=new");
  });
});

describe("postAuthDestination with a remembered origin", () => {
  it("follows a safe origin once the profile is complete", () => {
    expect(postAuthDestination({ profileComplete: true }, "/settings?tab=privacy")).toBe("/settings?tab=privacy");
  });
  it("ignores the origin while onboarding is due, and unsafe or public origins", () => {
    expect(postAuthDestination({ profileComplete: false }, "/settings")).toBe("/onboarding");
    expect(postAuthDestination({ profileComplete: true }, "//evil.com")).toBe("/dashboard");
    expect(postAuthDestination({ profileComplete: true }, "/register")).toBe("/dashboard");
  });
});

describe("edge guard (middleware.ts): the cookie's flags may be stale", () => {
  it("lets a signed-in user whose cookie says unverified or incomplete through to the guarded layouts, which decide from the database", () => {
    for (const path of [...ONBOARDING_ROUTES, ...PROFILE_ROUTES]) {
      for (const user of [incomplete, unverified, unverifiedComplete, partnerB]) expect(edgeGuard(path, q(), user), path).toEqual(next);
    }
  });

  it("decides every other row exactly as the guard does", () => {
    for (const path of [...ONBOARDING_ROUTES, ...PROFILE_ROUTES, ...PUBLIC_ROUTES, "/", "/profile-setup", "/nowhere", "/dev/outbox"]) {
      expect(edgeGuard(path, q(), null), path).toEqual(guard(path, q(), null));
      expect(edgeGuard(path, q(), complete), path).toEqual(guard(path, q(), complete));
    }
    for (const path of [...PUBLIC_ROUTES, "/", "/profile-setup", "/nowhere"]) {
      for (const user of [incomplete, unverified, partnerB]) expect(edgeGuard(path, q(), user), path).toEqual(guard(path, q(), user));
    }
  });
});

describe("underSignedInLayout: where the guard may renew the session cookie", () => {
  it("holds for the onboarding and profile pages, whose layouts extend the session row", () => {
    for (const path of [...ONBOARDING_ROUTES, ...PROFILE_ROUTES]) expect(underSignedInLayout(path), path).toBe(true);
  });

  it("holds for no other page", () => {
    for (const path of [...PUBLIC_ROUTES, "/", "/profile-setup", "/nowhere", "/dev/outbox"])
      expect(underSignedInLayout(path), path).toBe(false);
  });
});
