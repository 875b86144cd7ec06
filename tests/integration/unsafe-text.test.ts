import { sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { describe, expect, it, vi } from "vitest";
import { POST as register } from "@/app/api/auth/register/route";
import { POST as token } from "@/app/api/auth/token/route";
import { GET as fullProfile } from "@/app/api/couples/[id]/full-profile/route";
import { GET as outbox } from "@/app/api/dev/outbox/route";
import { POST as resend } from "@/app/api/email-verification/resend/route";
import { GET as placeSearch } from "@/app/api/locations/search/public/route";
import { PUT as profileUpdate } from "@/app/api/v2/profile/update/route";
import { getDb } from "@/db/client";
import { errorResponse } from "@/lib/http/errors";
import { browserSession, call, createUser, FROM_LOOPBACK } from "../support/api";
import { putFallback, withCouple } from "../support/couples";
import { postStep1, signedIn } from "../support/onboarding";

const NUL = "\u0000";
const registration = (overrides: Record<string, unknown> = {}) => ({
  email: `unsafe-${Date.now()}-${Math.random()}@example.com`,
  password: "Str0ng!Passw0rd",
  firstName: "Ada",
  lastName: "Lovelace",
  dateOfBirth: "1990-05-17",
  ...overrides,
});

/** A 400 VALIDATION_ERROR whose field carries `message`. */
function expectRefused(
  res: { status: number; json: { error: { code: string; fields?: Record<string, string> } } },
  field: string,
  message: string,
) {
  expect(res.status).toBe(400);
  expect(res.json.error.code).toBe("VALIDATION_ERROR");
  expect(res.json.error.fields?.[field]).toBe(message);
}

const updateProfile = async (body: unknown) => {
  const user = await createUser();
  const session = await browserSession(user.id);
  return call(profileUpdate, "PUT", "/api/v2/profile/update", { body, headers: { cookie: session.cookie, "x-csrf-token": session.csrf } });
};

describe("control characters and broken encodings in JSON bodies", () => {
  it("refuses a NUL in the e-mail at registration with the e-mail's message", async () => {
    expectRefused(
      await call(register, "POST", "/api/auth/register", { body: registration({ email: `a${NUL}b@example.com` }) }),
      "email",
      "Please enter a valid email address",
    );
  });

  it("refuses a NUL or a line break in a name at registration with the name's message", async () => {
    expectRefused(
      await call(register, "POST", "/api/auth/register", { body: registration({ firstName: `Ada${NUL}` }) }),
      "firstName",
      "First name contains characters that are not allowed",
    );
    expectRefused(
      await call(register, "POST", "/api/auth/register", { body: registration({ lastName: "Love\u2028lace" }) }),
      "lastName",
      "Last name contains characters that are not allowed",
    );
  });

  it("refuses a NUL in the e-mail of a password grant", async () => {
    const res = await call(token, "POST", "/api/auth/token", {
      body: { grant_type: "password", email: `x${NUL}@example.com`, password: "whatever" },
    });
    expectRefused(res, "email", "Please enter a valid email address");
  });

  it("refuses a NUL in the e-mail of a verification resend", async () => {
    expectRefused(
      await call(resend, "POST", "/api/email-verification/resend", { body: { email: `x${NUL}@example.com` } }),
      "email",
      "Please enter a valid email address",
    );
  });

  it("refuses a NUL in the occupation and in the bio of a profile update", async () => {
    expectRefused(
      await updateProfile({ occupation: `Engineer${NUL}` }),
      "occupation",
      "Occupation contains characters that are not allowed",
    );
    expectRefused(await updateProfile({ bio: `Hello${NUL}` }), "bio", "Bio contains characters that are not allowed");
  });

  it("keeps line breaks and tabs in a bio, and refuses them in an occupation", async () => {
    const kept = await updateProfile({ bio: "Line one\r\nline two\tend" });
    expect(kept.status).toBe(200);
    expectRefused(await updateProfile({ occupation: "Engi\nneer" }), "occupation", "Occupation contains characters that are not allowed");
  });

  it("refuses a NUL in a couple's bio", async () => {
    const { headers } = await withCouple();
    expectRefused(
      await putFallback({ bio: `We travel, we cook${NUL}, we argue about maps.` }, headers),
      "bio",
      "Bio contains characters that are not allowed",
    );
  });

  it("refuses a lone surrogate (JSON \\ud800) with the field's message", async () => {
    const res = await call(register, "POST", "/api/auth/register", {
      rawBody: JSON.stringify(registration()).replace('"firstName":"Ada"', '"firstName":"Ada\\ud800"'),
      headers: { "content-type": "application/json" },
    });
    expectRefused(res, "firstName", "First name contains characters that are not allowed");
  });

  it("refuses a body that is not valid UTF-8", async () => {
    const request = new NextRequest("http://localhost:3000/api/auth/register", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.77" },
      body: new Uint8Array([0x7b, 0x22, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    });
    const res = await register(request, { params: Promise.resolve({}) });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: "VALIDATION_ERROR", message: "The request body must be UTF-8 text." });
  });

  it("refuses a control character in a field no schema names, naming that field", async () => {
    const res = await call(register, "POST", "/api/auth/register", { body: registration({ nickname: `x${NUL}` }) });
    expectRefused(res, "nickname", "Nickname contains characters that are not allowed");
  });
});

describe("control characters in query strings, paths and multipart fields", () => {
  it("refuses a NUL in the outbox's `to`", async () => {
    expectRefused(
      await call(outbox, "GET", "/api/dev/outbox?to=a%00b%40example.com", { headers: FROM_LOOPBACK }),
      "to",
      "Please enter a valid email address",
    );
  });

  it("refuses a NUL in a query parameter", async () => {
    expectRefused(
      await call(placeSearch, "GET", "/api/locations/search/public?query=Lis%00bon"),
      "query",
      "query contains characters that are not allowed",
    );
  });

  it("refuses a NUL in a path parameter", async () => {
    const { headers } = await withCouple();
    const res = await call(fullProfile, "GET", "/api/couples/x%00/full-profile", { headers, params: { id: `x${NUL}` } });
    expectRefused(res, "id", "id contains characters that are not allowed");
  });

  it("refuses a NUL in step 1's occupation (multipart)", async () => {
    const { headers } = await signedIn();
    expectRefused(
      await postStep1(headers, { occupation: `Engineer${NUL}` }),
      "occupation",
      "Occupation contains characters that are not allowed",
    );
  });
});

describe("a Postgres data exception reaching the error handler", () => {
  it("answers 400 VALIDATION_ERROR and logs no request value", async () => {
    const db = await getDb();
    const thrown = await db.execute(sql`select ${`secret-value${NUL}`}::text`).then(
      () => null,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(Error);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = errorResponse(thrown);
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("VALIDATION_ERROR");
    expect(JSON.stringify(logged.mock.calls)).not.toContain("secret-value");
    logged.mockRestore();
  });
});
