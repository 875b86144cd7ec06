/**
 * The spec's route table and route guard as one pure function (section 2). middleware.ts
 * feeds it the path and the session claims; every row has a unit test.
 */

export type GuardUser = { emailVerified: boolean; profileComplete: boolean; isPartnerB: boolean };
export type GuardDecision = { action: "next" } | { action: "redirect"; to: string };

const PUBLIC = new Set(["/login", "/register", "/forgot-password", "/reset-password", "/signout", "/verify-email", "/invitation/accept"]);
/** Guarded, no complete profile required. */
const ONBOARDING = new Set(["/onboarding", "/invite-partner", "/partner-setup"]);
/** Guarded, complete profile required. */
const PROFILE_REQUIRED = new Set([
  "/dashboard",
  "/profile",
  "/discover",
  "/events",
  "/events/create",
  "/messages",
  "/forum",
  "/forum/local",
  "/settings",
  "/directory",
  "/notifications",
]);
const PROFILE_REQUIRED_PATTERNS = [/^\/profile\/[^/]+$/, /^\/forum\/post\/[^/]+$/];
/** Developer tools; their pages answer 404 themselves when disabled. */
const DEV = new Set(["/dev/outbox"]);

export type RouteKind = "root" | "public" | "profile-setup" | "onboarding" | "profile-required" | "dev" | "unknown";

export function routeKind(pathname: string): RouteKind {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (path === "/") return "root";
  if (PUBLIC.has(path)) return "public";
  if (path === "/profile-setup") return "profile-setup";
  if (ONBOARDING.has(path) || path.startsWith("/onboarding/")) return "onboarding";
  if (PROFILE_REQUIRED.has(path) || PROFILE_REQUIRED_PATTERNS.some((p) => p.test(path))) return "profile-required";
  if (DEV.has(path)) return "dev";
  return "unknown";
}

export type Flow = "standard" | "invitation" | "partner_b";

export function detectFlow(pathname: string, search: URLSearchParams): Flow {
  if (pathname === "/register" && search.has("invite")) return "invitation";
  if (pathname === "/invitation/accept" && (search.has("token") || search.has("invite"))) return "partner_b";
  return "standard";
}

/**
 * Where a signed-in user belongs: onboarding until the profile is complete; then the page they
 * were on their way to (when it is a safe one), else the dashboard. An invitation link comes
 * first: an invited partner who has an account signs in from it to join that couple.
 */
export function postAuthDestination(user: Pick<GuardUser, "profileComplete">, from?: string | null): string {
  const origin = safeOrigin(from);
  if (origin && isInvitationLink(origin)) return origin;
  return user.profileComplete ? (origin ?? "/dashboard") : "/onboarding";
}

const isInvitationLink = (path: string): boolean => {
  const url = new URL(path, "http://same.origin");
  return detectFlow(url.pathname, url.searchParams) !== "standard";
};

/** Only same-site paths are followed after sign-in (no open redirects): guarded pages and the two invitation links. */
export function safeOrigin(from: string | null | undefined): string | null {
  if (!from || !from.startsWith("/") || from.includes("\\")) return null;
  // Resolved as the browser would ("/a/../..//evil.com" is "//evil.com"), then judged by its path.
  const base = "http://same.origin";
  let url: URL;
  try {
    url = new URL(from, base);
  } catch {
    return null;
  }
  if (url.origin !== base || url.pathname.startsWith("//")) return null;
  const kind = routeKind(url.pathname);
  const followed = kind === "onboarding" || kind === "profile-required" || detectFlow(url.pathname, url.searchParams) !== "standard";
  return followed ? `${url.pathname}${url.search}${url.hash}` : null;
}

const next: GuardDecision = { action: "next" };
const redirect = (to: string): GuardDecision => ({ action: "redirect", to });

export function guard(pathname: string, search: URLSearchParams, user: GuardUser | null): GuardDecision {
  const kind = routeKind(pathname);
  switch (kind) {
    case "unknown":
      return redirect("/");
    case "root":
      return redirect(user ? postAuthDestination(user) : "/login");
    case "dev":
      return next;
    case "public":
      // A signed-in user opening /register goes where they belong, unless asked to start over or invited.
      if (pathname === "/register" && user && search.get("clear") !== "true" && detectFlow(pathname, search) === "standard") {
        return redirect(user.isPartnerB || user.profileComplete ? "/dashboard" : "/onboarding");
      }
      return next;
  }
  if (!user) {
    const origin = kind === "profile-setup" ? "/onboarding" : `${pathname}${search.size ? `?${search}` : ""}`;
    return redirect(`/login?${new URLSearchParams({ from: origin })}`);
  }
  if (!user.emailVerified) return redirect("/verify-email");
  if (kind === "profile-setup") return redirect("/onboarding");
  if (kind === "profile-required" && !user.profileComplete) return redirect("/onboarding");
  return next;
}

/**
 * The guard as middleware.ts applies it, from the session cookie alone. The cookie's flags can
 * lag behind the database (a REST call, the partner, another device), so a flag it says is
 * missing may be set by now. On the pages under the signed-in layouts, which read the flags
 * from the database and redirect themselves exactly as `guard` would (requireSignedIn and the
 * layouts), a signed-in user is therefore let through and the layout decides.
 */
export function edgeGuard(pathname: string, search: URLSearchParams, user: GuardUser | null): GuardDecision {
  const kind = routeKind(pathname);
  if (user && (kind === "onboarding" || kind === "profile-required")) return next;
  return guard(pathname, search, user);
}
