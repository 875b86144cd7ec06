import { describe, expect, it } from "vitest";
import { NextURL } from "next/dist/server/web/next-url";
import { parseRelativeURL } from "next/dist/shared/lib/router/utils/relativize-url";
import { formatHostname } from "next/dist/server/lib/format-hostname";
import { nextHostname } from "@/lib/http/app-server";

/**
 * Next's router keeps a middleware rewrite in process only when the rewrite's URL is relative to
 * the URL it gave the request (`http://<hostname>:<port><path>`, from the hostname server.ts hands
 * it); the middleware builds the rewrite from `request.nextUrl`, a NextURL of that same URL.
 * Checked with Next's own pieces, so an upgrade that changes either side fails here.
 */
function rewriteStaysInProcess(host: string, port = 3000): boolean {
  const initUrl = `http://${formatHostname(nextHostname(host))}:${port}/register?invite=abc`;
  const nextUrl = new NextURL(initUrl);
  const rewrite = new NextURL(new URL(`/invitation/accept${nextUrl.search}`, nextUrl.origin));
  return parseRelativeURL(String(rewrite), initUrl).isRelative;
}

describe("nextHostname: the host name Next is told it serves on", () => {
  it("names every loopback address localhost, as the middleware's URLs do", () => {
    expect(["127.0.0.1", "127.0.0.2", "::1", "localhost"].map(nextHostname)).toEqual(["localhost", "localhost", "localhost", "localhost"]);
    expect(["0.0.0.0", "::", "10.0.0.5", "couples.internal"].map(nextHostname)).toEqual(["0.0.0.0", "::", "10.0.0.5", "couples.internal"]);
  });

  it("keeps an invited partner's /register rewrite in process on every address the server may listen on", () => {
    for (const host of ["127.0.0.1", "::1", "localhost", "0.0.0.0", "::", "10.0.0.5"]) expect(rewriteStaysInProcess(host), host).toBe(true);
  });

  it("would send it back over HTTP if Next were told the loopback address itself", () => {
    const initUrl = "http://127.0.0.1:3000/register?invite=abc";
    const rewrite = new NextURL(new URL("/invitation/accept?invite=abc", new NextURL(initUrl).origin));
    expect(parseRelativeURL(String(rewrite), initUrl).isRelative).toBe(false);
  });
});
