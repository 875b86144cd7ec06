import { describe, expect, it, vi } from "vitest";
import { GET as outbox } from "@/app/api/dev/outbox/route";
import { getDb } from "@/db/client";
import { emailOutbox } from "@/db/schema";
import { call, FROM_LOOPBACK } from "../support/api";

async function queue(to: string, subject: string, createdAt: Date) {
  const db = await getDb();
  await db.insert(emailOutbox).values({ to, subject, text: `text of ${subject}`, html: `<p>${subject}</p>`, createdAt });
}

describe("GET /api/dev/outbox", () => {
  it("lists the e-mails to an address, newest first, as {to, subject, text, html, createdAt}", async () => {
    const to = "outbox-reader@example.com";
    // Within the 30 days the outbox keeps an e-mail (opening it runs the due work, which drops older ones).
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const hoursAgo = (hours: number) => new Date(hour - hours * 3_600_000);
    await queue(to, "first", hoursAgo(3));
    await queue(to, "third", hoursAgo(1));
    await queue(to, "second", hoursAgo(2));
    await queue("someone-else@example.com", "not yours", hoursAgo(0));

    const res = await call(outbox, "GET", `/api/dev/outbox?to=${encodeURIComponent(to)}`, { headers: FROM_LOOPBACK });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.json.messages).toEqual([
      { to, subject: "third", text: "text of third", html: "<p>third</p>", createdAt: hoursAgo(1).toISOString() },
      { to, subject: "second", text: "text of second", html: "<p>second</p>", createdAt: hoursAgo(2).toISOString() },
      { to, subject: "first", text: "text of first", html: "<p>first</p>", createdAt: hoursAgo(3).toISOString() },
    ]);
  });

  it("matches the address whatever its case", async () => {
    await queue("mixed-case@example.com", "hello", new Date());
    const res = await call(outbox, "GET", "/api/dev/outbox?to=Mixed-Case@Example.com", { headers: FROM_LOOPBACK });
    expect(res.json.messages.map((m: { subject: string }) => m.subject)).toEqual(["hello"]);
  });

  it("lists every address without ?to=, newest first", async () => {
    await queue("a-list@example.com", "older", new Date(Date.now() - 60_000));
    await queue("b-list@example.com", "newer", new Date(Date.now() + 60_000));
    const res = await call(outbox, "GET", "/api/dev/outbox", { headers: FROM_LOOPBACK });
    const subjects = res.json.messages.map((m: { subject: string }) => m.subject);
    expect(subjects).toContain("older");
    expect(subjects.indexOf("newer")).toBeLessThan(subjects.indexOf("older"));
    const times = res.json.messages.map((m: { createdAt: string }) => Date.parse(m.createdAt));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
  });

  it("answers an empty list for an address with no e-mail", async () => {
    const res = await call(outbox, "GET", "/api/dev/outbox?to=never-written@example.com", { headers: FROM_LOOPBACK });
    expect(res.json).toEqual({ messages: [] });
  });

  it("answers 404 to a caller not on this machine, whatever X-Forwarded-For it claimed before the server's entry", async () => {
    await queue("remote-reader@example.com", "reset link", new Date());
    for (const address of ["203.0.113.7", "10.0.0.8", "unknown"]) {
      const res = await call(outbox, "GET", "/api/dev/outbox?to=remote-reader@example.com", {
        headers: { "x-forwarded-for": `127.0.0.1, ${address}` },
      });
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.json)).not.toContain("reset link");
    }
  });

  it("answers 404 once an e-mail provider is configured, or in production (the production deployment whatever ENABLE_DEV_OUTBOX says)", async () => {
    await queue("secret-reader@example.com", "reset link", new Date());
    for (const vars of [
      { RESEND_API_KEY: "re_test_key" },
      { NODE_ENV: "production" },
      // The production deployment, even with the switch the browser tests' production build uses.
      { APP_ENV: "production", ENABLE_DEV_OUTBOX: "true" },
      { VERCEL_ENV: "production", ENABLE_DEV_OUTBOX: "true" },
    ]) {
      for (const [name, value] of Object.entries(vars)) vi.stubEnv(name, value);
      vi.resetModules(); // lib/env reads the environment once
      try {
        const { GET } = await import("@/app/api/dev/outbox/route");
        const res = await call(GET, "GET", "/api/dev/outbox?to=secret-reader@example.com", { headers: FROM_LOOPBACK });
        expect(res.status).toBe(404);
        expect(JSON.stringify(res.json)).not.toContain("reset link");
      } finally {
        vi.unstubAllEnvs();
        vi.resetModules();
      }
    }
  });
});

describe("the outbox on a preview (PREVIEW_ACCESS_TOKEN)", () => {
  const TOKEN = "reviewer-token-0123456789abcdef";

  /** The outbox call and the reviewer checks as a fresh process configured with `vars` loads them. */
  async function configured(vars: Record<string, string>) {
    for (const [name, value] of Object.entries({ NODE_ENV: "production", ...vars })) vi.stubEnv(name, value);
    vi.resetModules(); // lib/env reads the environment once
    const [{ GET }, access] = await Promise.all([import("@/app/api/dev/outbox/route"), import("@/lib/http/preview-access")]);
    return { GET, ...access };
  }

  /** The cookie the reviewer's visit of /dev/outbox?access=TOKEN sets, as a Cookie header. */
  async function reviewerCookie(access: Awaited<ReturnType<typeof configured>>): Promise<string> {
    const { NextResponse } = await import("next/server");
    const cookie = access.grantReviewerCookie(NextResponse.next()).cookies.get(access.previewAccessCookieName());
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.value).not.toContain(TOKEN); // a proof of the token, never the token itself
    return `${cookie!.name}=${cookie!.value}`;
  }

  const REMOTE = { "x-forwarded-for": "203.0.113.9" };

  it("opens to a remote reviewer holding the cookie, and only with the right cookie", async () => {
    await queue("preview-reviewer@example.com", "verify your e-mail", new Date());
    try {
      const access = await configured({ APP_ENV: "preview", PREVIEW_ACCESS_TOKEN: TOKEN });
      expect(access.isReviewerToken(TOKEN)).toBe(true);
      expect(access.isReviewerToken(`${TOKEN}x`)).toBe(false);
      expect(access.isReviewerToken("")).toBe(false);
      const cookie = await reviewerCookie(access);
      const url = "/api/dev/outbox?to=preview-reviewer@example.com";
      const opened = await call(access.GET, "GET", url, { headers: { ...REMOTE, cookie } });
      expect(opened.status).toBe(200);
      expect(opened.json.messages.map((m: { subject: string }) => m.subject)).toEqual(["verify your e-mail"]);
      for (const wrong of [undefined, `${access.previewAccessCookieName()}=${TOKEN}`, `${cookie}x`]) {
        const res = await call(access.GET, "GET", url, { headers: { ...REMOTE, ...(wrong ? { cookie: wrong } : {}) } });
        expect(res.status).toBe(404);
      }
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });

  it("never opens outside a preview, nor on a preview without a token, whatever cookie is sent", async () => {
    await queue("production-reader@example.com", "reset link", new Date());
    try {
      const preview = await configured({ APP_ENV: "preview", PREVIEW_ACCESS_TOKEN: TOKEN });
      const cookie = await reviewerCookie(preview);
      vi.unstubAllEnvs();
      for (const vars of [
        { PREVIEW_ACCESS_TOKEN: TOKEN } as Record<string, string>,
        { VERCEL_ENV: "production", PREVIEW_ACCESS_TOKEN: TOKEN },
        { APP_ENV: "preview" },
      ]) {
        const access = await configured(vars);
        expect(access.isReviewerToken(TOKEN)).toBe(false);
        const res = await call(access.GET, "GET", "/api/dev/outbox?to=production-reader@example.com", { headers: { ...REMOTE, cookie } });
        expect(res.status).toBe(404);
        expect(JSON.stringify(res.json)).not.toContain("reset link");
        vi.unstubAllEnvs();
      }
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });

  it("keeps the e-mail of a preview in the outbox even with Resend configured", async () => {
    try {
      for (const name of ["RESEND_API_KEY"]) vi.stubEnv(name, "re_test_key");
      vi.stubEnv("VERCEL_ENV", "preview");
      vi.resetModules();
      const { sendsRealEmail } = await import("@/lib/env");
      expect(sendsRealEmail()).toBe(false);
      vi.stubEnv("VERCEL_ENV", "production");
      vi.resetModules();
      expect((await import("@/lib/env")).sendsRealEmail()).toBe(true);
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });
});
