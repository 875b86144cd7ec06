/**
 * The spec's route guard as one pure function (section 2), over the route table in lib/routes.ts.
 * middleware.ts feeds it the path and the session claims; every row has a unit test.
 */
import { findRoute, type RouteTier } from "@/lib/routes";
import { isSlash, trimEndWhere } from "@/lib/trim-end";

export type GuardUser = { emailVerified: boolean; profileComplete: boolean; isPartnerB: boolean };
export type GuardDecision = { action: "next" } | { action: "redirect"; to: string };

export type RouteKind = RouteTier | "unknown";

/** The tier of a path from the route registry; "unknown" (sent to /) when no page answers it. */
export function routeKind(pathname: string): RouteKind {
  const path = pathname.length > 1 ? trimEndWhere(pathname, isSlash) : pathname;
  return findRoute(path)?.tier ?? "unknown";
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
/** Where /signout sends a navigation from another site: a question, not a sign-out. */
export const CONFIRM_SIGN_OUT_PATH = "/signout/confirm";

/**
 * /signout signs out at once when typed or followed from this site; a link on another site
 * (the browser's Sec-Fetch-Site) must not sign a member out, so it is asked first.
 */
export const signOutFromAnotherSite = (pathname: string, secFetchSite: string | null): boolean =>
  pathname === "/signout" && secFetchSite === "cross-site";

export function edgeGuard(pathname: string, search: URLSearchParams, user: GuardUser | null): GuardDecision {
  if (user && underSignedInLayout(pathname)) return next;
  return guard(pathname, search, user);
}

/**
 * Whether the cookie alone would send its holder on from a page that reads no session row (/,
 * /register, /profile-setup): the guard answers them otherwise than a visitor. A session ended
 * since (expired, signed out on another device, revoked) would take them to a signed-in page that
 * then sends them to sign in, so the route guard confirms the row first (middleware.ts), and its
 * holder sees the page they asked for, or sign-in, at once.
 */
export function cookieMovesVisitor(pathname: string, search: URLSearchParams, user: GuardUser): boolean {
  if (underSignedInLayout(pathname)) return false;
  const signedIn = edgeGuard(pathname, search, user);
  const visitor = edgeGuard(pathname, search, null);
  return (
    signedIn.action !== visitor.action || (signedIn.action === "redirect" && visitor.action === "redirect" && signedIn.to !== visitor.to)
  );
}

/**
 * The pages under the signed-in layouts, which read the session row (requireSignedIn) and, by
 * reading it, extend a live browser session (touchSession): the only pages where the route guard
 * renews the session cookie, so the cookie never outlives the row it names.
 */
export function underSignedInLayout(pathname: string): boolean {
  const kind = routeKind(pathname);
  return kind === "onboarding" || kind === "profile-required";
}
