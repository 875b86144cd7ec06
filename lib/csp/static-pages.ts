import { readFileSync } from "node:fs";
import path from "node:path";
import { findRoute } from "../routes";
import { pageHeaders, prerenderedPageContentSecurityPolicy } from "./headers";
import { scriptHashSource } from "./theme-script";
// Relative imports here and below: next.config.ts loads this file, and its loader knows no `@/`.
import { SESSION_COOKIE_NAMES } from "../auth/session-token";
import { isSlash, trimEndWhere } from "../trim-end";

/**
 * Public pages with nothing per request (/login, /register, /forgot-password, /signout, the trust
 * pages) are prerendered by `next build` into <distDir>/server/app/<path>.html and served as those
 * bytes.
 * No nonce can be in them, so middleware.ts allows their inline scripts by hash instead: read
 * from that HTML once per path and server process, then kept (a new build is a new process).
 * Most of them, on a visit the guard has nothing to decide about (guardedWhen), do not go through
 * middleware at all: their policy is a header rule of the build's routes (unguardedPageRules).
 * Node runtime only.
 */

/** The text of each inline script that runs (no `src`, a JavaScript type), as the browser hashes it. */
export function inlineScripts(html: string): string[] {
  const scripts: string[] = [];
  for (const [, attributes = "", text = ""] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\bsrc\s*=/i.test(attributes)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && type !== "module" && !/^(?:text|application)\/(?:java|ecma)script$/.test(type)) continue;
    scripts.push(text);
  }
  return scripts;
}

export const inlineScriptHashes = (html: string) => [...new Set(inlineScripts(html).map(scriptHashSource))];

const cache = new Map<string, readonly string[] | null>();

/** The built HTML's file for a page path, or null for paths that cannot be a prerendered public page. */
export function prerenderedFile(pathname: string, distDir: string, root = process.cwd()): string | null {
  const page = pathname.length > 1 ? trimEndWhere(pathname, isSlash) : pathname;
  if (findRoute(page)?.tier !== "public" || !/^\/[a-z0-9/-]+$/.test(page)) return null;
  return path.join(root, distDir, "server", "app", `${page}.html`);
}

/**
 * The hash sources of the inline scripts of `pathname`'s prerendered HTML, or null when the page
 * is rendered per request (no such file: not a public page, a page that reads the request, or
 * `next dev`, which prerenders nothing).
 */
export function prerenderedScriptHashes(pathname: string): readonly string[] | null {
  if (process.env.NODE_ENV !== "production") return null;
  const file = prerenderedFile(pathname, process.env.NEXT_DIST_DIR || ".next");
  if (!file) return null;
  const known = cache.get(file);
  if (known !== undefined) return known;
  let hashes: readonly string[] | null;
  try {
    hashes = inlineScriptHashes(readFileSync(file, "utf8"));
  } catch {
    hashes = null;
  }
  cache.set(file, hashes);
  return hashes;
}

/**
 * The prerendered public pages served without the route guard to a visitor with no session
 * (middleware.ts's matcher): the guard would only let them through, and running it halved their
 * requests per second. /signout and its question stay guarded: they are about a session.
 */
export const UNGUARDED_PAGES = [
  "/login",
  "/register",
  "/forgot-password",
  "/about",
  "/terms",
  "/privacy",
  "/guidelines",
  "/safety",
] as const;
export type UnguardedPage = (typeof UNGUARDED_PAGES)[number];

/** A `has`/`missing` condition of Next's routes (which ignore a condition whose value is empty). */
export type RouteCondition = { type: "cookie" | "header" | "query"; key: string };

/**
 * What sends one of UNGUARDED_PAGES to the guard after all, any one of them: a session (a
 * signed-in visitor may be sent on); a possible server action (Next's markers: a Next-Action
 * header, a form's Content-Type) or an Origin (every browser's POST has one): a cross-site one is
 * refused there (lib/http/early-refusal), where Next would answer 500; and on /register an
 * invitation (the invitation page). An empty value counts as none: RegisterForm and the app's
 * server take those.
 */
export function guardedWhen(page: UnguardedPage): RouteCondition[] {
  return [
    ...SESSION_COOKIE_NAMES.map((key) => ({ type: "cookie" as const, key })),
    ...["origin", "next-action", "content-type"].map((key) => ({ type: "header" as const, key })),
    ...(page === "/register" ? [{ type: "query" as const, key: "invite" }] : []),
  ];
}

export type HeaderRule = { source: string; missing: RouteCondition[]; headers: { key: string; value: string }[] };

/**
 * The header rule of each of UNGUARDED_PAGES, exactly where middleware.ts's matcher leaves the
 * page to Next (none of guardedWhen), with its policy. next.config.ts declares them, before the
 * build, with `unhashedPageContentSecurityPolicy`: its inline scripts' hashes are not known yet,
 * so a production build's pages would not run there; `npm run build` then fills in each page's
 * own (builtPageRules, scripts/static-page-headers.ts). A platform that read the rules before
 * that step would serve pages that do not run, never pages with no policy.
 */
export const unguardedPageRules = (policy: (page: UnguardedPage) => string): HeaderRule[] =>
  UNGUARDED_PAGES.map((page) => ({ source: page, missing: guardedWhen(page), headers: pageHeaders(policy(page)) }));

/** The rules with each page's policy by its built inline scripts; a page missing from the build throws. */
export const builtPageRules = (distDir: string, root = process.cwd()): HeaderRule[] =>
  unguardedPageRules((page) =>
    prerenderedPageContentSecurityPolicy(inlineScriptHashes(readFileSync(prerenderedFile(page, distDir, root)!, "utf8"))),
  );

/**
 * `headers` (a routes manifest's rules) with each declared rule of unguardedPageRules replaced by
 * its built one; throws when one is not declared there (next.config.ts and this file disagree).
 */
export function fillPageRules<Rule extends { source: string; missing?: unknown }>(headers: Rule[], built: HeaderRule[]): Rule[] {
  const same = (rule: { source: string; missing?: unknown }, other: HeaderRule) =>
    rule.source === other.source && JSON.stringify(rule.missing) === JSON.stringify(other.missing);
  for (const rule of built)
    if (!headers.some((declared) => same(declared, rule))) throw new Error(`next.config.ts declares no header rule for ${rule.source}`);
  return headers.map((declared) => {
    const rule = built.find((candidate) => same(declared, candidate));
    return rule ? { ...declared, headers: rule.headers } : declared;
  });
}
