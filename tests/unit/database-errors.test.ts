import { describe, expect, it } from "vitest";
import { errorCodes } from "@/db/error-codes";
import { databaseUnavailable, isDatabaseUnavailable } from "@/db/supervised-pool";
import { actionFailure } from "@/lib/http/action-result";
import { errorResponse, VANISHED_MESSAGE } from "@/lib/http/errors";

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

  it("answers 503 with Retry-After, not 500: OUTCOME_UNKNOWN when it went away during the request, SERVICE_UNAVAILABLE when refused first", async () => {
    // A connection lost while the request ran (a reset during COMMIT too): what it wrote may be saved.
    for (const code of ["ECONNREFUSED", "ECONNRESET", "CONNECTION_CLOSED"]) {
      const res = errorResponse(wrapped(code));
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect((await res.json()).error.code, code).toBe("OUTCOME_UNKNOWN");
    }
    // The pool known to be down refuses before anything is done: the one 503 a POST is sent again on.
    const refused = errorResponse(databaseUnavailable());
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect((await refused.json()).error.code).toBe("SERVICE_UNAVAILABLE");
    expect(errorResponse(wrapped("23505")).status).toBe(500);
  });
});

describe("what a database error means to the caller, for calls and server actions alike", () => {
  it("a vanished reference (23503: deleted between the check and the write) is 404, not 500", async () => {
    const res = errorResponse(wrapped("23503"));
    expect(res.status).toBe(404);
    expect((await res.json()).error).toEqual({ code: "NOT_FOUND", message: VANISHED_MESSAGE });
    expect(actionFailure(wrapped("23503"))).toEqual({ ok: false, code: "NOT_FOUND", message: VANISHED_MESSAGE });
  });

  it("a data exception (class 22) is the caller's 400 in a server action too, and an unknown one stays unexpected", () => {
    expect(actionFailure(wrapped("22P02")).code).toBe("VALIDATION_ERROR");
    // A value too large for an index (an index row's 2,704 bytes) is the input's size too.
    expect(errorResponse(wrapped("54000")).status).toBe(400);
    expect(actionFailure(wrapped("ECONNREFUSED")).code).toBe("OUTCOME_UNKNOWN");
    expect(actionFailure(wrapped("42P01"), "Could not save.")).toEqual({ ok: false, code: "INTERNAL_ERROR", message: "Could not save." });
  });

  it("reads a code at most five causes deep, and never loops on a cycle", () => {
    const deep = (depth: number) => {
      let error: Error = Object.assign(new Error("driver"), { code: "23503" });
      for (let i = 1; i < depth; i++) error = new Error("wrapper", { cause: error });
      return error;
    };
    expect(errorCodes(deep(5))).toEqual(["23503"]);
    expect(errorCodes(deep(6))).toEqual([]);
    const cycle = Object.assign(new Error("a"), { code: "X" }) as Error & { cause?: unknown };
    cycle.cause = cycle;
    expect(errorCodes(cycle)).toEqual(["X", "X", "X", "X", "X"]);
  });
});
