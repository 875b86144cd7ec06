import { readFileSync } from "node:fs";
import path from "node:path";
import { findRoute } from "../routes";
import { pageHeaders, prerenderedPageContentSecurityPolicy } from "./headers";
import { scriptHashSource } from "./theme-script";
import { SESSION_COOKIE_NAMES } from "@/lib/auth/session-token";
import { isSlash, trimEndWhere } from "@/lib/trim-end";

/**
 * Public pages with nothing per request (/login, /register, /forgot-password, /signout) are
 * prerendered by `next build` into <distDir>/server/app/<path>.html and served as those bytes.
 * No nonce can be in them, so middleware.ts allows their inline scripts by hash instead: read
 * from that HTML once per path and server process, then kept (a new build is a new process).
 * Without a session most of them do not wait for middleware at all: the build writes their
 * policy into its routes (staticPageHeaderRules). Node runtime only.
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

/** A `has`/`missing` condition of Next's routes. */
export type RouteCondition = { type: "cookie" | "header" | "query"; key: string };

/**
 * What sends one of UNGUARDED_PAGES to the guard after all, any one of them: a session (a
 * signed-in visitor may be sent on), an Origin (every POST has one: a cross-site server action
 * is refused there, lib/http/early-refusal), and on /register an invitation (the invitation page).
 */
export function guardedWhen(page: UnguardedPage): RouteCondition[] {
  return [
    ...SESSION_COOKIE_NAMES.map((key) => ({ type: "cookie" as const, key })),
    { type: "header", key: "origin" },
    ...(page === "/register" ? [{ type: "query" as const, key: "invite" }] : []),
  ];
}

export type HeaderRule = { source: string; missing: RouteCondition[]; headers: { key: string; value: string }[] };

/**
 * The header rules `npm run build` adds to its routes for UNGUARDED_PAGES: each page's policy by
 * its built scripts' hashes, exactly where middleware.ts's matcher leaves the page to Next (none
 * of guardedWhen). A page missing from the build throws: it would go out with no policy.
 */
export function staticPageHeaderRules(distDir: string, root = process.cwd()): HeaderRule[] {
  return UNGUARDED_PAGES.map((page) => {
    const hashes = inlineScriptHashes(readFileSync(prerenderedFile(page, distDir, root)!, "utf8"));
    return { source: page, missing: guardedWhen(page), headers: pageHeaders(prerenderedPageContentSecurityPolicy(hashes)) };
  });
}
