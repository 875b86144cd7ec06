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
    await queue(to, "first", new Date("2026-01-01T10:00:00Z"));
    await queue(to, "third", new Date("2026-01-01T12:00:00Z"));
    await queue(to, "second", new Date("2026-01-01T11:00:00Z"));
    await queue("someone-else@example.com", "not yours", new Date("2026-01-01T13:00:00Z"));

    const res = await call(outbox, "GET", `/api/dev/outbox?to=${encodeURIComponent(to)}`, { headers: FROM_LOOPBACK });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.json.messages).toEqual([
      { to, subject: "third", text: "text of third", html: "<p>third</p>", createdAt: "2026-01-01T12:00:00.000Z" },
      { to, subject: "second", text: "text of second", html: "<p>second</p>", createdAt: "2026-01-01T11:00:00.000Z" },
      { to, subject: "first", text: "text of first", html: "<p>first</p>", createdAt: "2026-01-01T10:00:00.000Z" },
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

  it("answers 404 once an e-mail provider is configured, or in production", async () => {
    await queue("secret-reader@example.com", "reset link", new Date());
    for (const [name, value] of [
      ["RESEND_API_KEY", "re_test_key"],
      ["NODE_ENV", "production"],
    ] as const) {
      vi.stubEnv(name, value);
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
