import { NextResponse } from "next/server";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { activeSessionUser } from "@/lib/auth/sessions";
import { jsonBody, route, searchParams, stringParams } from "@/lib/http/route";
import { call } from "../support/api";
import { signedIn, withCouple } from "../support/couples";

/** A route that answers what the wrapper handed it. */
const echo = <A extends Parameters<typeof route>[0]["access"]>(access: A) =>
  route({ access, input: jsonBody(z.object({ name: z.string().min(1, "name is required") })) }, async ({ caller, input }) =>
    NextResponse.json({ userId: caller?.userId ?? null, input }),
  );

describe("route(): who may call", () => {
  it("public reads no credential at all: a malformed Authorization header does not refuse the call", async () => {
    const res = await call(echo("public"), "POST", "/x", { body: { name: "Ada" }, headers: { authorization: "Basic nope" } });
    expect(res).toMatchObject({ status: 200, json: { userId: null, input: { name: "Ada" } } });
  });

  it("optional hands the signed-in caller, and null to a signed-out one", async () => {
    const { user, headers } = await signedIn();
    expect((await call(echo("optional"), "POST", "/x", { body: { name: "Ada" }, headers })).json.userId).toBe(user.id);
    expect((await call(echo("optional"), "POST", "/x", { body: { name: "Ada" } })).json.userId).toBeNull();
  });

  it("signed-in refuses a signed-out call with 401 before reading its input", async () => {
    const res = await call(echo("signed-in"), "POST", "/x", { body: { name: "" } });
    expect(res).toMatchObject({ status: 401, json: { error: { code: "UNAUTHENTICATED", message: "Not authenticated" } } });
  });

  it("signed-in keeps the CSRF rule of mutating cookie calls", async () => {
    const { headers } = await signedIn();
    const res = await call(echo("signed-in"), "POST", "/x", { body: { name: "Ada" }, headers: { cookie: headers.cookie! } });
    expect(res).toMatchObject({ status: 403, json: { error: { code: "CSRF_VALIDATION_FAILED" } } });
  });

  it("complete-profile refuses an account without a complete profile with 409 and lets a complete one in", async () => {
    const incomplete = await signedIn();
    const refused = await call(echo("complete-profile"), "POST", "/x", { body: { name: "Ada" }, headers: incomplete.headers });
    expect(refused).toMatchObject({ status: 409, json: { error: { code: "PROFILE_INCOMPLETE" } } });

    const complete = await withCouple();
    const answered = await call(echo("complete-profile"), "POST", "/x", { body: { name: "Ada" }, headers: complete.headers });
    expect(answered).toMatchObject({ status: 200, json: { userId: complete.user.id, input: { name: "Ada" } } });
  });
});

describe("route(): input", () => {
  it("answers invalid input with 400 VALIDATION_ERROR and every field's message", async () => {
    const res = await call(echo("public"), "POST", "/x", { body: { name: "" } });
    expect(res).toMatchObject({ status: 400, json: { error: { code: "VALIDATION_ERROR", fields: { name: "name is required" } } } });
  });

  it("parses the query string and the route params with their schemas", async () => {
    const handler = route(
      { access: "public", params: stringParams("id"), input: searchParams(z.object({ q: z.string() }), { firstIssue: true }) },
      async ({ params, input }) => NextResponse.json({ id: params.id, q: input.q }),
    );
    expect((await call(handler, "GET", "/x/7?q=lisbon", { params: { id: "7" } })).json).toEqual({ id: "7", q: "lisbon" });
    const missing = await call(handler, "GET", "/x/7", { params: { id: "7" } });
    expect(missing).toMatchObject({ status: 400, json: { error: { code: "VALIDATION_ERROR" } } });
  });

  it("turns an unexpected error into a 500 with a request id, never a stack trace", async () => {
    const handler = route({ access: "public" }, async () => {
      throw new Error("boom at /secret/path.ts:12");
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await call(handler, "GET", "/x");
    logged.mockRestore();
    expect(res.status).toBe(500);
    expect(res.json.error.code).toBe("INTERNAL_ERROR");
    expect(JSON.stringify(res.json)).not.toContain("secret");
  });
});

describe("route(): the session read", () => {
  it("hands the handler what the route's read took along, and the read the input it asks for (null when it does not parse)", async () => {
    const { user, headers } = await signedIn();
    const asked: unknown[] = [];
    const handler = route(
      {
        access: "signed-in",
        input: searchParams(z.object({ q: z.string() }), { firstIssue: true }),
        session: async (db, sessionId, input) => {
          const query = await input();
          asked.push(query);
          const userId = await activeSessionUser(db, sessionId);
          return userId === null ? null : { userId, value: query?.q ?? null };
        },
      },
      async ({ caller, live }) => NextResponse.json({ userId: caller.userId, live }),
    );
    expect((await call(handler, "GET", "/x?q=lisbon", { headers })).json).toEqual({ userId: user.id, live: "lisbon" });
    // A bad input is answered after the session check: 400 with a live session, 401 without one.
    expect((await call(handler, "GET", "/x", { headers })).status).toBe(400);
    expect(asked).toEqual([{ q: "lisbon" }, null]);
    expect((await call(handler, "GET", "/x")).status).toBe(401);
    expect(asked).toHaveLength(2);
  });
});

describe("route(): caching", () => {
  const answer = (access: Parameters<typeof route>[0]["access"], headers?: Record<string, string>) =>
    route({ access }, async () => NextResponse.json({ ok: true }, { headers }));

  it("keeps a signed-in caller's read out of every cache unless its handler says how it may be kept; a public read as its handler answers it", async () => {
    const { headers } = await withCouple();
    for (const access of ["optional", "signed-in", "complete-profile"] as const)
      expect((await call(answer(access), "GET", "/x", { headers })).headers.get("cache-control")).toBe("private, no-store");
    expect(
      (await call(answer("signed-in", { "Cache-Control": "private, no-cache" }), "GET", "/x", { headers })).headers.get("cache-control"),
    ).toBe("private, no-cache");
    expect((await call(answer("signed-in"), "HEAD", "/x", { headers })).headers.get("cache-control")).toBe("private, no-store");
    expect((await call(answer("public"), "GET", "/x")).headers.get("cache-control")).toBeNull();
  });
});
