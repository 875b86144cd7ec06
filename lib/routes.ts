/**
 * Every page of the app, once (spec section 2): its path as the app/ folders spell it, who may
 * open it, and its navigation link. The route guard and the navigation bar read this table, and a
 * unit test checks it against the page.tsx files, so a new page cannot be forgotten here.
 * Pure and browser-safe (the guard runs on the Edge runtime, the navigation bar in the browser).
 */

/** Who may open a page; the guard in lib/auth/guard.ts says what each tier requires. */
export type RouteTier =
  /** "/": sends everyone where they belong. */
  | "root"
  | "public"
  /** The old profile set-up address, kept as a redirect to onboarding. */
  | "profile-setup"
  /** Signed in and verified, no complete profile required. */
  | "onboarding"
  /** Signed in, verified, complete profile. */
  | "profile-required"
  /** Developer tools; their pages answer 404 themselves when disabled. */
  | "dev";

/**
 * "main": the forum links before the IRL button; "secondary": the links after it; "moderators":
 * last, shown to moderators and admins only; "footer": every page's footer.
 */
export type NavGroup = "main" | "secondary" | "moderators" | "footer";

export type RouteRow = {
  /** As under app/ without route groups: `[id]` is one segment, `[...rest]` one or more. */
  path: string;
  tier: RouteTier;
  /** `tab`: the link's label in the phone's bottom tab bar; links without one go in the phone's menu. */
  nav?: { label: string; group: NavGroup; tab?: string };
  /** The navigation link whose area this page is in (a conversation is in Messages), marked while it is open. */
  section?: string;
};

export const ROUTES: readonly RouteRow[] = [
  { path: "/", tier: "root" },

  { path: "/login", tier: "public" },
  { path: "/register", tier: "public" },
  { path: "/forgot-password", tier: "public" },
  { path: "/reset-password", tier: "public" },
  { path: "/signout", tier: "public" },
  { path: "/signout/confirm", tier: "public" },
  { path: "/verify-email", tier: "public" },
  { path: "/invitation/accept", tier: "public" },
  /** A plan shared with a friend (lib/plans/share.ts): read-only, no account needed. */
  { path: "/plan/[token]", tier: "public" },
  /** A notification e-mail's unsubscribe link: works without signing in. */
  { path: "/unsubscribe", tier: "public" },
  /** What Two of Us is and for whom, for visitors (linked from /login, /register and the footer). */
  { path: "/about", tier: "public", nav: { label: "About", group: "footer" } },
  /** The trust pages, for visitors and members alike (linked from registration, settings and the footer). */
  { path: "/terms", tier: "public", nav: { label: "Terms", group: "footer" } },
  { path: "/privacy", tier: "public", nav: { label: "Privacy notice", group: "footer" } },
  { path: "/guidelines", tier: "public", nav: { label: "Community guidelines", group: "footer" } },
  /** Meeting safely, reporting and blocking, what moderators do and how to appeal (linked from every moderation notice). */
  { path: "/safety", tier: "public", nav: { label: "Safety", group: "footer" } },

  { path: "/profile-setup", tier: "profile-setup" },

  { path: "/onboarding", tier: "onboarding" },
  { path: "/onboarding/[...step]", tier: "onboarding" },
  /** Download or delete the account before the profile is complete (/settings needs one). */
  { path: "/onboarding/account", tier: "onboarding" },
  { path: "/invite-partner", tier: "onboarding" },
  { path: "/partner-setup", tier: "onboarding" },

  { path: "/forum", tier: "profile-required", nav: { label: "Global", group: "main", tab: "Global" } },
  { path: "/forum/local", tier: "profile-required", nav: { label: "Local", group: "main", tab: "Local" } },
  { path: "/forum/post/[postId]", tier: "profile-required" },
  { path: "/directory", tier: "profile-required", nav: { label: "Directory", group: "secondary", tab: "Directory" } },
  { path: "/messages", tier: "profile-required", nav: { label: "Messages", group: "secondary", tab: "Messages" } },
  { path: "/messages/[conversationId]", tier: "profile-required", section: "/messages" },
  { path: "/discover", tier: "profile-required", nav: { label: "Discover", group: "secondary" } },
  { path: "/events", tier: "profile-required", nav: { label: "Events", group: "secondary" } },
  { path: "/profile", tier: "profile-required", nav: { label: "Your Couple Profile", group: "secondary", tab: "Profile" } },
  { path: "/profile/[coupleId]", tier: "profile-required" },
  { path: "/settings", tier: "profile-required", nav: { label: "Settings", group: "secondary" } },
  { path: "/settings/profile", tier: "profile-required", section: "/settings" },
  { path: "/settings/couple", tier: "profile-required", section: "/settings" },
  { path: "/settings/verification", tier: "profile-required", section: "/settings" },
  { path: "/settings/location", tier: "profile-required", section: "/settings" },
  { path: "/settings/appearance", tier: "profile-required", section: "/settings" },
  { path: "/settings/partner", tier: "profile-required", section: "/settings" },
  { path: "/settings/messages", tier: "profile-required", section: "/settings" },
  { path: "/settings/blocked", tier: "profile-required", section: "/settings" },
  { path: "/settings/security", tier: "profile-required", section: "/settings" },
  { path: "/settings/notifications", tier: "profile-required", section: "/settings" },
  { path: "/settings/data", tier: "profile-required", section: "/settings" },
  /** The e-mail change link: opened signed in (the guard sends a signed-out visitor to sign in first). */
  { path: "/settings/confirm-email", tier: "profile-required" },
  { path: "/notifications", tier: "profile-required", nav: { label: "Notifications", group: "secondary" } },
  { path: "/dashboard", tier: "profile-required" },
  { path: "/events/create", tier: "profile-required" },
  /** Moderators and admins only: each page answers not-found to everyone else. */
  { path: "/moderation", tier: "profile-required", nav: { label: "Moderation", group: "moderators" } },
  { path: "/moderation/log", tier: "profile-required", section: "/moderation" },
  { path: "/moderation/team", tier: "profile-required", section: "/moderation" },
  { path: "/moderation/verifications", tier: "profile-required", section: "/moderation" },
  /** A couple's own standing: the moderators' actions on it, and its appeals. */
  { path: "/safety/appeal", tier: "profile-required" },
  { path: "/moderation/couples/[coupleId]", tier: "profile-required", section: "/moderation" },

  { path: "/dev/outbox", tier: "dev" },
  /** The benchmark's baseline page (BENCH_BARE=1 only). */
  { path: "/dev/bare", tier: "dev" },
];

/** A row's path as a regular expression over a URL path. */
function toPattern(path: string): RegExp {
  const source = path
    .split("/")
    .map((segment) => {
      if (/^\[\.\.\.[^\]]+\]$/.test(segment)) return ".+";
      if (/^\[[^\]]+\]$/.test(segment)) return "[^/]+";
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return new RegExp(`^${source}$`);
}

const MATCHERS = ROUTES.map((row) => ({ row, pattern: toPattern(row.path) }));

/** The row of a URL path (without trailing slash), or undefined for a path no page answers. */
export function findRoute(pathname: string): RouteRow | undefined {
  return MATCHERS.find(({ pattern }) => pattern.test(pathname))?.row;
}

export type NavLink = { href: string; label: string; tab?: string };

/** The navigation link a page is in the area of, if any (its own link aside). */
export const navSection = (pathname: string): string | undefined => findRoute(pathname)?.section;

/** The navigation bar's links of one group, in table order. */
export function navLinks(group: NavGroup): NavLink[] {
  return ROUTES.flatMap((row) =>
    row.nav?.group === group ? [{ href: row.path, label: row.nav.label, ...(row.nav.tab ? { tab: row.nav.tab } : {}) }] : [],
  );
}
