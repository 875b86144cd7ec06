import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedWhen, staticPageHeaderRules, UNGUARDED_PAGES, type RouteCondition } from "@/lib/csp/static-pages";
import { scriptHashSource } from "@/lib/csp/theme-script";
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

describe("staticPageHeaderRules", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), "unguarded-"));
    mkdirSync(path.join(root, ".next-test", "server", "app"), { recursive: true });
    for (const page of UNGUARDED_PAGES)
      writeFileSync(path.join(root, ".next-test", "server", "app", `${page.slice(1)}.html`), `<script>${page}()</script>`);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("gives each first page its own scripts' policy exactly where the guard does not run", () => {
    const rules = staticPageHeaderRules(".next-test", root);
    expect(rules.map((rule) => rule.source)).toEqual([...UNGUARDED_PAGES]);
    for (const [i, page] of UNGUARDED_PAGES.entries()) {
      const rule = rules[i]!;
      expect(rule.missing).toEqual(guardedWhen(page));
      const csp = rule.headers.find((header) => header.key === "Content-Security-Policy")?.value ?? "";
      const policy = csp.split("; ").find((directive) => directive.startsWith("script-src ")) ?? "";
      expect(policy).toContain(scriptHashSource(`${page}()`));
      for (const other of UNGUARDED_PAGES.filter((p) => p !== page)) expect(policy).not.toContain(scriptHashSource(`${other}()`));
      expect(policy).not.toMatch(/'unsafe-inline'|'nonce-/);
    }
  });

  it("throws when a first page is missing from the build (it would go out with no policy)", () => {
    rmSync(path.join(root, ".next-test", "server", "app", "register.html"));
    expect(() => staticPageHeaderRules(".next-test", root)).toThrow(/register\.html/);
  });
});
