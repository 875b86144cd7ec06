import { afterEach, describe, expect, it, vi } from "vitest";

/** lib/env reads the environment once, so each case loads the modules afresh after stubbing it. */
async function headersModule(env: { NODE_ENV: string; APP_URL: string }) {
  vi.stubEnv("NODE_ENV", env.NODE_ENV);
  vi.stubEnv("APP_URL", env.APP_URL);
  vi.resetModules();
  return import("@/lib/csp/headers");
}

const directives = (csp: string) =>
  Object.fromEntries(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
const names = (list: { key: string }[]) => list.map((h) => h.key);

afterEach(() => vi.unstubAllEnvs());

describe("contentSecurityPolicy", () => {
  it("allows scripts only with this response's nonce, never inline ones without it", async () => {
    const { contentSecurityPolicy, newNonce } = await headersModule({ NODE_ENV: "development", APP_URL: "http://localhost:3000" });
    const nonce = newNonce();
    const csp = directives(contentSecurityPolicy(nonce));
    expect(csp["script-src"]).toContain(`'nonce-${nonce}'`);
    expect(csp["script-src"]).not.toContain("'unsafe-inline'");
    expect(csp["script-src"]).not.toContain("*");
  });

  it("keeps 'unsafe-inline' out of script-src in production too", async () => {
    const { contentSecurityPolicy } = await headersModule({ NODE_ENV: "production", APP_URL: "https://couples.example" });
    const csp = directives(contentSecurityPolicy("abc"));
    expect(csp["script-src"]).toContain("'nonce-abc'");
    expect(csp["script-src"]).not.toContain("'unsafe-inline'");
    expect(csp["script-src"]).not.toContain("'unsafe-eval'");
  });

  it("forbids framing and plugins", async () => {
    const { contentSecurityPolicy } = await headersModule({ NODE_ENV: "development", APP_URL: "http://localhost:3000" });
    const csp = directives(contentSecurityPolicy("abc"));
    expect(csp["frame-ancestors"]).toEqual(["'none'"]);
    expect(csp["object-src"]).toEqual(["'none'"]);
    expect(csp["base-uri"]).toEqual(["'self'"]);
  });

  it("lets the app start its own workers, and only those", async () => {
    const { contentSecurityPolicy } = await headersModule({ NODE_ENV: "production", APP_URL: "https://couples.example" });
    expect(directives(contentSecurityPolicy("abc"))["worker-src"]).toEqual(["'self'"]);
  });

  it("upgrades insecure requests only on an HTTPS production deployment", async () => {
    const https = await headersModule({ NODE_ENV: "production", APP_URL: "https://couples.example" });
    expect(https.contentSecurityPolicy("abc")).toContain("upgrade-insecure-requests");
    const localBuild = await headersModule({ NODE_ENV: "production", APP_URL: "http://localhost:3000" });
    expect(localBuild.contentSecurityPolicy("abc")).not.toContain("upgrade-insecure-requests");
  });
});

describe("newNonce", () => {
  it("is 128 random bits in base64, different every time", async () => {
    const { newNonce } = await headersModule({ NODE_ENV: "development", APP_URL: "http://localhost:3000" });
    const nonces = new Set(Array.from({ length: 50 }, newNonce));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(nonce).toMatch(/^[\d+/a-z]{22}==$/i);
  });
});

describe("staticSecurityHeaders", () => {
  it("sets nosniff, DENY framing and a referrer policy", async () => {
    const { staticSecurityHeaders } = await headersModule({ NODE_ENV: "development", APP_URL: "http://localhost:3000" });
    expect(staticSecurityHeaders()).toEqual(
      expect.arrayContaining([
        { key: "X-Content-Type-Options", value: "nosniff" },
        { key: "X-Frame-Options", value: "DENY" },
        { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
      ]),
    );
  });

  it("sends HSTS only from an HTTPS production deployment", async () => {
    expect(
      names((await headersModule({ NODE_ENV: "development", APP_URL: "http://localhost:3000" })).staticSecurityHeaders()),
    ).not.toContain("Strict-Transport-Security");
    expect(
      names((await headersModule({ NODE_ENV: "production", APP_URL: "http://localhost:3000" })).staticSecurityHeaders()),
    ).not.toContain("Strict-Transport-Security");
    expect(names((await headersModule({ NODE_ENV: "production", APP_URL: "https://couples.example" })).staticSecurityHeaders())).toContain(
      "Strict-Transport-Security",
    );
  });
});

describe("prerenderedPageContentSecurityPolicy", () => {
  it("allows a prerendered page's inline scripts by hash and its files from this origin, never any inline script", async () => {
    const { prerenderedPageContentSecurityPolicy } = await headersModule({ NODE_ENV: "production", APP_URL: "https://couples.example" });
    const { THEME_INIT_SCRIPT_HASH } = await import("@/lib/csp/theme-script");
    const csp = directives(prerenderedPageContentSecurityPolicy(["'sha256-abc='", "'sha256-abc='", THEME_INIT_SCRIPT_HASH]));
    expect(csp["script-src"]).toEqual(["'self'", THEME_INIT_SCRIPT_HASH, "'sha256-abc='"]);
    expect(csp["frame-ancestors"]).toEqual(["'none'"]);
    expect(csp["object-src"]).toEqual(["'none'"]);
    expect(csp["worker-src"]).toEqual(["'self'"]);
  });

  it("lets the theme's first-paint script run on pages rendered per request too", async () => {
    const { contentSecurityPolicy } = await headersModule({ NODE_ENV: "production", APP_URL: "https://couples.example" });
    const { THEME_INIT_SCRIPT_HASH } = await import("@/lib/csp/theme-script");
    expect(directives(contentSecurityPolicy("abc"))["script-src"]).toEqual([
      "'self'",
      "'nonce-abc'",
      THEME_INIT_SCRIPT_HASH,
      "'strict-dynamic'",
    ]);
  });
});
