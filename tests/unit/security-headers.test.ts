import { afterEach, describe, expect, it, vi } from "vitest";
import { contentSecurityPolicy, newNonce, staticSecurityHeaders } from "@/lib/http/security-headers";

const directives = (csp: string) => Object.fromEntries(csp.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));

afterEach(() => vi.unstubAllEnvs());

describe("contentSecurityPolicy", () => {
  it("allows scripts only with this response's nonce, never inline ones without it", () => {
    const nonce = newNonce();
    const csp = directives(contentSecurityPolicy(nonce));
    expect(csp["script-src"]).toContain(`'nonce-${nonce}'`);
    expect(csp["script-src"]).not.toContain("'unsafe-inline'");
    expect(csp["script-src"]).not.toContain("*");
  });

  it("forbids framing and plugins", () => {
    const csp = directives(contentSecurityPolicy(newNonce()));
    expect(csp["frame-ancestors"]).toEqual(["'none'"]);
    expect(csp["object-src"]).toEqual(["'none'"]);
    expect(csp["base-uri"]).toEqual(["'self'"]);
  });

  it("drops 'unsafe-eval' in production and upgrades insecure requests", () => {
    vi.stubEnv("NODE_ENV", "production");
    const raw = contentSecurityPolicy("abc");
    expect(directives(raw)["script-src"]).not.toContain("'unsafe-eval'");
    expect(raw).toContain("upgrade-insecure-requests");
  });
});

describe("newNonce", () => {
  it("is 128 random bits in base64, different every time", () => {
    const nonces = new Set(Array.from({ length: 50 }, newNonce));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});

describe("staticSecurityHeaders", () => {
  it("sets nosniff, DENY framing and a referrer policy, and HSTS only in production", () => {
    const names = (list: { key: string }[]) => list.map((h) => h.key);
    const dev = staticSecurityHeaders();
    expect(dev).toEqual(
      expect.arrayContaining([
        { key: "X-Content-Type-Options", value: "nosniff" },
        { key: "X-Frame-Options", value: "DENY" },
        { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
      ]),
    );
    expect(names(dev)).not.toContain("Strict-Transport-Security");
    vi.stubEnv("NODE_ENV", "production");
    expect(names(staticSecurityHeaders())).toContain("Strict-Transport-Security");
  });
});
