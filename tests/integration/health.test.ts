import { describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { getDb } from "@/db/client";
import { call } from "../support/api";

describe("GET /api/health", () => {
  it("answers liveness without asking the database", async () => {
    const res = await call(health, "GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "ok" });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("answers readiness after a database round trip", async () => {
    // Opened first: the embedded database's first open (and migration) alone can take past the 1 s.
    await getDb();
    const res = await call(health, "GET", "/api/health?ready=1");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "ok", database: "ok" });
  });
});
