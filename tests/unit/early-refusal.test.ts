import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppServer } from "@/lib/http/app-server";
import { earlyRefusal, isCrossSitePagePost, isMalformedPath } from "@/lib/http/early-refusal";

const headers = (values: Record<string, string>) => new Headers(values);

describe("malformed paths (middleware.ts answers them before Next's router, which would answer 500)", () => {
  it("refuses a percent-encoding that does not decode with 400, on pages and API paths alike", () => {
    for (const path of ["/profile/%ff", "/api/couples/%ff/full-profile", "/api/images/avatar/%ff", "/profile/%", "/profile/%e2%82"]) {
      expect(isMalformedPath(path), path).toBe(true);
      expect(earlyRefusal("GET", path, headers({ host: "app.test" })), path).toEqual({
        status: 400,
        code: "VALIDATION_ERROR",
        message: "The address is not valid.",
      });
    }
  });

  it("lets well-encoded paths through", () => {
    for (const path of ["/profile/abc", "/profile/%20x", "/api/images/avatar/a%2Fb", "/profile/%C3%A9"]) {
      expect(isMalformedPath(path), path).toBe(false);
      expect(earlyRefusal("GET", path, headers({ host: "app.test" })), path).toBeNull();
    }
  });
});

describe("cross-site server-action posts (Next throws, answering 500; middleware answers 403)", () => {
  const sameSite = { host: "app.test", origin: "http://app.test" };

  it("refuses a POST to a page whose Origin is another site, 'null' or unreadable", () => {
    for (const origin of ["https://evil.test", "http://app.test.evil.test", "http://app.test:8080", "null", "not a url"]) {
      const sent = headers({ host: "app.test", origin, "next-action": "abc123" });
      expect(isCrossSitePagePost("POST", sent), origin).toBe(true);
      expect(earlyRefusal("POST", "/login", sent), origin).toEqual({
        status: 403,
        code: "FORBIDDEN",
        message: "Cross-site requests are not allowed.",
      });
    }
  });

  it("compares with X-Forwarded-Host first, as Next does behind a proxy", () => {
    expect(
      isCrossSitePagePost("POST", headers({ host: "internal:3000", "x-forwarded-host": "app.test", origin: "https://app.test" })),
    ).toBe(false);
    expect(isCrossSitePagePost("POST", headers({ host: "app.test", "x-forwarded-host": "other.test", origin: "https://app.test" }))).toBe(
      true,
    );
  });

  it("lets same-site posts, posts without Origin, other methods and API calls through", () => {
    expect(isCrossSitePagePost("POST", headers(sameSite))).toBe(false);
    expect(isCrossSitePagePost("POST", headers({ host: "app.test" }))).toBe(false);
    expect(isCrossSitePagePost("GET", headers({ host: "app.test", origin: "https://evil.test" }))).toBe(false);
    // API routes check their own caller and CSRF token; the refusal is for pages (server actions).
    expect(earlyRefusal("POST", "/api/notifications/read", headers({ host: "app.test", origin: "https://evil.test" }))).toBeNull();
    expect(earlyRefusal("POST", "/login", headers(sameSite))).toBeNull();
  });
});

describe("the app's server refuses a page POST the route guard may not see (Next's route conditions ignore empty values)", () => {
  let port: number;
  let close: () => void;
  beforeAll(async () => {
    // Stands for Next: what it answers when the request reaches it.
    const server = createAppServer(async (_req, res) => void res.end("next"), { trustedProxyHops: 0, strictTransportSecurity: null });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    close = () => server.close();
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => close());

  function send(method: string, path: string, headers: Record<string, string>) {
    return new Promise<{ status: number; body: string; frame: string | undefined }>((resolve, reject) => {
      request({ port, host: "127.0.0.1", method, path, headers }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, body, frame: res.headers["x-frame-options"] as string | undefined }));
      })
        .on("error", reject)
        .end();
    });
  }

  it("answers 403 for an empty or another site's Origin, with the security headers, before Next", async () => {
    for (const origin of ["", "https://evil.test"])
      for (const path of ["/login", "/about?x=1", "/dashboard"]) {
        const answer = await send("POST", path, { origin, "next-action": "" });
        expect(answer, `${path} ${JSON.stringify(origin)}`).toEqual({
          status: 403,
          body: JSON.stringify({ error: { code: "FORBIDDEN", message: "Cross-site requests are not allowed." } }),
          frame: "DENY",
        });
      }
  });

  it("hands Next same-site posts, posts without Origin, other methods and API calls", async () => {
    const host = `127.0.0.1:${port}`;
    expect((await send("POST", "/login", { origin: `http://${host}` })).body).toBe("next");
    expect((await send("POST", "/login", {})).body).toBe("next");
    expect((await send("GET", "/login", { origin: "" })).body).toBe("next");
    expect((await send("POST", "/api/notifications/read", { origin: "https://evil.test" })).body).toBe("next");
  });
});
