import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  builtPageRules,
  fillPageRules,
  guardedWhen,
  unguardedPageRules,
  UNGUARDED_PAGES,
  type RouteCondition,
} from "@/lib/csp/static-pages";
import { unhashedPageContentSecurityPolicy } from "@/lib/csp/headers";
import { scriptHashSource, THEME_INIT_SCRIPT_HASH } from "@/lib/csp/theme-script";
import { ROUTES } from "@/lib/routes";

type DoesMatch = typeof import("next/experimental/testing/server").unstable_doesMiddlewareMatch;
let doesMatch: DoesMatch;
let config: Parameters<DoesMatch>[0]["config"];

beforeAll(async () => {
  // Next's testing helper loads its request storage, which looks for this global first.
  (globalThis as { AsyncLocalStorage?: unknown }).AsyncLocalStorage = AsyncLocalStorage;
  ({ unstable_doesMiddlewareMatch: doesMatch } = await import("next/experimental/testing/server"));
  ({ config } = await import("@/middleware"));
});

/** Whether middleware.ts runs for `url` when the request carries `conditions`. */
function guarded(url: string, conditions: RouteCondition[] = []): boolean {
  const cookies = Object.fromEntries(conditions.filter((c) => c.type === "cookie").map((c) => [c.key, "x"]));
  const headers = Object.fromEntries(conditions.filter((c) => c.type === "header").map((c) => [c.key, "https://app.test"]));
  const query = conditions.filter((c) => c.type === "query").map((c) => `${c.key}=x`);
  return doesMatch({ config, url: query.length ? `${url}?${query.join("&")}` : url, cookies, headers });
}

describe("middleware.ts's matcher and lib/csp/static-pages agree on which visits skip the guard", () => {
  it("leaves each first page to Next without any of guardedWhen, and guards it with any one of them", () => {
    for (const page of UNGUARDED_PAGES) {
      expect(guarded(page), page).toBe(false);
      expect(guarded(`${page}?from=%2Fsettings&email=a%40b.test`), page).toBe(false);
      for (const condition of guardedWhen(page)) expect(guarded(page, [condition]), `${page} ${condition.key}`).toBe(true);
    }
    expect(guarded("/login?invite=x")).toBe(false);
    expect(guarded("/register?invite=x")).toBe(true);
  });

  it("guards every other page, and API paths only with a % in them", () => {
    const others = ROUTES.map((route) =>
      route.path
        .split("/")
        .map((segment) => (segment.startsWith("[") ? "abc" : segment))
        .join("/"),
    ).filter((page) => !(UNGUARDED_PAGES as readonly string[]).includes(page));
    expect(others.length).toBeGreaterThan(20);
    for (const page of [...others, "/loginx", "/login/x", "/registers", "/no/such/page"]) expect(guarded(page), page).toBe(true);
    expect(guarded("/api/couples/abc")).toBe(false);
    expect(guarded("/api/couples/%ff")).toBe(true);
  });
});

const scriptSrc = (rule: { headers: { key: string; value: string }[] }) =>
  (rule.headers.find((header) => header.key === "Content-Security-Policy")?.value ?? "")
    .split("; ")
    .find((directive) => directive.startsWith("script-src ")) ?? "";

describe("the pages' header rules: declared in next.config.ts, filled in by the build", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), "unguarded-"));
    mkdirSync(path.join(root, ".next-test", "server", "app"), { recursive: true });
    for (const page of UNGUARDED_PAGES)
      writeFileSync(path.join(root, ".next-test", "server", "app", `${page.slice(1)}.html`), `<script>${page}()</script>`);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("gives each page its own scripts' policy exactly where the guard does not run", () => {
    const rules = builtPageRules(".next-test", root);
    expect(rules.map((rule) => rule.source)).toEqual([...UNGUARDED_PAGES]);
    for (const [i, page] of UNGUARDED_PAGES.entries()) {
      const rule = rules[i]!;
      expect(rule.missing).toEqual(guardedWhen(page));
      const policy = scriptSrc(rule);
      expect(policy).toContain(scriptHashSource(`${page}()`));
      for (const other of UNGUARDED_PAGES.filter((p) => p !== page)) expect(policy).not.toContain(scriptHashSource(`${other}()`));
      expect(policy).not.toMatch(/'unsafe-inline'|'nonce-/);
    }
  });

  it("replaces each declared rule's headers in a routes manifest, keeping the rest and what Next added", () => {
    const other = { source: "/:path*", headers: [{ key: "X-Frame-Options", value: "DENY" }], regex: "^(?:/(.*))$" };
    const declared = unguardedPageRules(unhashedPageContentSecurityPolicy).map((rule) => ({ ...rule, regex: `^${rule.source}$` }));
    const filled = fillPageRules([other, ...declared], builtPageRules(".next-test", root));
    expect(filled[0]).toBe(other);
    expect(filled.slice(1).map((rule) => rule.regex)).toEqual(declared.map((rule) => rule.regex));
    for (const [i, page] of UNGUARDED_PAGES.entries()) {
      expect(scriptSrc(declared[i]!)).not.toContain(scriptHashSource(`${page}()`));
      expect(scriptSrc(filled[i + 1]!)).toContain(scriptHashSource(`${page}()`));
    }
    // Not declared (next.config.ts without the rules): the build stops rather than write none.
    expect(() => fillPageRules([other], builtPageRules(".next-test", root))).toThrow("next.config.ts declares no header rule for /login");
  });

  it("declares, before the build, a policy under which a production page's inline scripts do not run", () => {
    vi.stubEnv("NODE_ENV", "production");
    try {
      expect(scriptSrc(unguardedPageRules(unhashedPageContentSecurityPolicy)[0]!)).toBe(`script-src 'self' ${THEME_INIT_SCRIPT_HASH}`);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("throws when a page is missing from the build (it would go out with a policy its scripts break under)", () => {
    rmSync(path.join(root, ".next-test", "server", "app", "register.html"));
    expect(() => builtPageRules(".next-test", root)).toThrow(/register\.html/);
  });
});
