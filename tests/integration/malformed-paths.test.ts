import { describe, expect, it } from "vitest";
import { GET as fullProfile } from "@/app/api/couples/[id]/full-profile/route";
import { GET as image } from "@/app/api/images/[...key]/route";
import { call } from "../support/api";
import { withCouple } from "../support/couples";

/**
 * A path like /api/couples/%ff/full-profile never reaches a handler in a running app:
 * middleware.ts answers 400 first (tests/unit/early-refusal.test.ts). Should a parameter ever
 * arrive undecoded, the handlers answer 404 too, never 500.
 */
describe("undecodable path parameters reaching a handler", () => {
  it("answers 404 for a couple id of '%ff'", async () => {
    const { headers } = await withCouple();
    const res = await call(fullProfile, "GET", "/api/couples/%ff/full-profile", { headers, params: { id: "%ff" } });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("NOT_FOUND");
  });

  it("answers 404 for an image key with '%ff'", async () => {
    const res = await call(image as never, "GET", "/api/images/avatar/%ff", { params: { key: ["avatar", "%ff"] } as never });
    expect(res.status).toBe(404);
  });
});
