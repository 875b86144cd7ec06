import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import middleware from "@/middleware";

const visit = (secFetchSite?: string) =>
  middleware(new NextRequest("http://localhost:3000/signout", { headers: secFetchSite ? { "sec-fetch-site": secFetchSite } : {} }));

describe("GET /signout from another site", () => {
  it("is asked 'Sign out?' first: a cross-site navigation is sent to the question, not signed out", async () => {
    const response = await visit("cross-site");
    expect(response.status).toBe(303);
    expect(new URL(response.headers.get("location")!).pathname).toBe("/signout/confirm");
  });

  it("signs out at once when typed, followed from this site, or from a browser that sends no Sec-Fetch-Site", async () => {
    for (const site of ["none", "same-origin", undefined]) {
      const response = await visit(site);
      expect(response.headers.get("location")).toBeNull();
    }
  });
});
