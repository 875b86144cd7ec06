import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { errorResponse } from "@/lib/http/errors";
import { installLogRedaction } from "@/lib/log";

const SECRET = "ada.secret@example.com";

/** A real failing query whose parameter is a request value (Postgres 22P02: not a uuid). */
async function failingQuery(): Promise<unknown> {
  const db = await getDb();
  try {
    await db.select({ id: users.id }).from(users).where(eq(users.id, SECRET));
  } catch (error) {
    return error;
  }
  throw new Error("the query should have failed");
}

/** Everything console.error was called with, as one string (objects inspected like the console does). */
const logged = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.map((args) => args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ")).join("\n");

afterEach(() => vi.restoreAllMocks());

describe("logs never hold request values", () => {
  it("a data exception reaching the API answers 400 and is logged with its class and SQLSTATE, without the query's parameters or SQL", async () => {
    const error = await failingQuery();
    // The raw error does carry the value: that is what must not reach the log.
    expect(String((error as Error).message)).toContain(SECRET);
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = errorResponse(error);
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe("VALIDATION_ERROR");
    const line = logged(spy);
    expect(line).toContain("22P02");
    // The driver's own error (the cause Drizzle wraps) by its class: PostgresError from postgres.js, PGlite's another.
    expect(line).toContain(`"name":"${((error as Error).cause as Error).constructor.name}"`);
    expect(line).not.toContain(SECRET);
    expect(line).not.toMatch(/select|params/i);
  });

  it("redacts errors anyone hands to console.error once installed, as Next's own logging of a thrown error does", async () => {
    const error = await failingQuery();
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    installLogRedaction();
    console.error("⨯", error);
    const line = logged(spy);
    expect(line).toContain("22P02");
    expect(line).not.toContain(SECRET);
    expect(line).not.toMatch(/select|params/i);
  });
});
