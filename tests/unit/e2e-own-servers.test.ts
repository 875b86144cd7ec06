import { describe, expect, it } from "vitest";
import { ownPort, ownServerRefusal } from "../e2e/servers";

describe("a browser test's server of its own (tests/e2e/servers.ts)", () => {
  it("runs beside the run's server on Postgres only: a PGlite folder is one process's", () => {
    expect(ownServerRefusal({ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/e2e_3150" })).toBeNull();
    expect(ownServerRefusal({ PGLITE_DIR: ".data/e2e-pglite-3150" })).toMatch(/needs Postgres/);
    expect(ownServerRefusal({ DATABASE_URL: "", PGLITE_DIR: ".data/e2e-pglite-3150" })).toMatch(/needs Postgres/);
  });

  it("listens on the ports after the run's, one per worker", () => {
    expect([0, 1, 2, 3].map((worker) => ownPort(3150, worker))).toEqual([3151, 3152, 3153, 3154]);
    expect(() => ownPort(3150, 4)).toThrow(/at most 4 workers/);
  });
});
