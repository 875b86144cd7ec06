import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "@/db/supervised-pool";
import { errorResponse } from "@/lib/http/errors";

const wrapped = (code: string) =>
  Object.assign(new Error("Failed query: insert ..."), { cause: Object.assign(new Error("driver"), { code }) });

describe("an unreachable database", () => {
  it("is recognised through Drizzle's wrapper: refused, closed, timed out, shutting down, starting up", () => {
    for (const code of ["ECONNREFUSED", "CONNECTION_CLOSED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT", "57P01", "57P03", "08006"]) {
      expect(isDatabaseUnavailable(wrapped(code)), code).toBe(true);
    }
    expect(isDatabaseUnavailable(wrapped("23505"))).toBe(false);
    expect(isDatabaseUnavailable(new Error("boom"))).toBe(false);
  });

  it("answers 503 SERVICE_UNAVAILABLE with Retry-After, not 500", async () => {
    const res = errorResponse(wrapped("ECONNREFUSED"));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect((await res.json()).error.code).toBe("SERVICE_UNAVAILABLE");
    expect(errorResponse(wrapped("23505")).status).toBe(500);
  });
});
