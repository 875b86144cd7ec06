import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AppError, type ErrorCode } from "@/lib/errors";
import { errorResponse, fieldErrors, parseWith, readJson } from "@/lib/http/errors";

describe("AppError", () => {
  it.each<[ErrorCode, number]>([
    ["VALIDATION_ERROR", 400],
    ["INVALID_TOKEN", 400],
    ["ALREADY_VERIFIED", 400],
    ["INVALID_CREDENTIALS", 401],
    ["TOKEN_EXPIRED", 401],
    ["SESSION_EXPIRED", 401],
    ["UNAUTHENTICATED", 401],
    ["EMAIL_NOT_CONFIRMED", 403],
    ["CSRF_VALIDATION_FAILED", 403],
    ["FORBIDDEN", 403],
    ["USER_NOT_FOUND", 404],
    ["NOT_FOUND", 404],
    ["EMAIL_EXISTS", 409],
    ["PROFILE_INCOMPLETE", 409],
    ["RATE_LIMITED", 429],
    ["ACCOUNT_LOCKED", 429],
    ["INTERNAL_ERROR", 500],
  ])("answers %s with status %i", (code, status) => {
    expect(new AppError(code, "x").status).toBe(status);
  });
});

describe("errorResponse", () => {
  it("answers {error:{code,message}} with the status, extra body fields and Retry-After", async () => {
    const response = errorResponse(new AppError("RATE_LIMITED", "Slow down", { retryAfterSeconds: 42, body: { attemptsRemaining: 3 } }));
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("42");
    expect(await response.json()).toEqual({ attemptsRemaining: 3, error: { code: "RATE_LIMITED", message: "Slow down" } });
  });

  it("does not let extra body fields overwrite the error", async () => {
    const response = errorResponse(new AppError("RATE_LIMITED", "Slow down", { body: { error: "spoofed" } }));
    expect((await response.json()).error).toEqual({ code: "RATE_LIMITED", message: "Slow down" });
  });

  it("turns a ZodError into VALIDATION_ERROR with per-field messages", async () => {
    const parsed = z.object({ a: z.string().min(2, "too short") }).safeParse({ a: "x" });
    const response = errorResponse(parsed.error);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "VALIDATION_ERROR", fields: { a: "too short" } } });
  });

  it("answers an unexpected error with 500 and a generic message, never its text or stack", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = errorResponse(new Error('relation "users" password_hash leaked'));
    const body = await response.json();
    expect(response.status).toBe(500);
    expect(body.error.code).toBe("INTERNAL_ERROR");
    expect(body.error.message).toMatch(/^Something went wrong on our side\. Please try again\. \(request [0-9a-f-]{36}\)$/);
    expect(JSON.stringify(body)).not.toContain("password_hash");
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });
});

describe("request body helpers", () => {
  it("keeps the first message per field", () => {
    const parsed = z.object({ a: z.string().min(2, "first").regex(/z/, "second") }).safeParse({ a: "x" });
    expect(fieldErrors(parsed.error!)).toEqual({ a: "first" });
  });

  it("reads an empty body as {} and refuses arrays, scalars and broken JSON with 400", async () => {
    const req = (body: string) => new Request("http://localhost/", { method: "POST", body });
    expect(await readJson(req(""))).toEqual({});
    for (const body of ["[1]", "42", "null", "{oops"]) {
      await expect(readJson(req(body))).rejects.toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
    }
  });

  it("parseWith throws VALIDATION_ERROR carrying the given message", () => {
    expect(() => parseWith(z.object({ a: z.string() }), {}, "Please fill in all required fields correctly.")).toThrow(
      expect.objectContaining({ code: "VALIDATION_ERROR", message: "Please fill in all required fields correctly." }),
    );
  });
});
