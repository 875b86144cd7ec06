import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { POST as step1 } from "@/app/api/onboarding/step1/route";
import { POST as createCouple } from "@/app/api/v2/couples/route";
import { MAX_REQUEST_BYTES } from "@/lib/http/body";
import { browserSession, createUser, freshAddress } from "../support/api";

const MB = 1024 * 1024;

/** A body streamed in 64 KB chunks with no Content-Length, as a chunked upload arrives. */
function streamed(totalBytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= totalBytes) return controller.close();
      const chunk = new Uint8Array(Math.min(64 * 1024, totalBytes - sent)).fill(0x61);
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

async function post(handler: typeof step1, path: string, contentType: string, totalBytes: number) {
  const user = await createUser();
  const session = await browserSession(user.id);
  const headers = new Headers({
    "x-forwarded-for": freshAddress(),
    cookie: session.cookie,
    "x-csrf-token": session.csrf,
    "content-type": contentType,
  });
  const request = new NextRequest(new URL(path, "http://localhost:3000"), {
    method: "POST",
    headers,
    body: streamed(totalBytes),
    duplex: "half",
  } as ConstructorParameters<typeof NextRequest>[1]);
  expect(request.headers.get("content-length")).toBeNull();
  const response = await handler(request, { params: Promise.resolve({} as never) });
  return { status: response.status, json: await response.json() };
}

describe("bodies without Content-Length", () => {
  it("refuses a streamed JSON body past the call's declared size (a couple's: 32 kB) with 413 PAYLOAD_TOO_LARGE", async () => {
    const res = await post(createCouple, "/api/v2/couples", "application/json", 2 * MB);
    expect(res.status).toBe(413);
    expect(res.json.error).toEqual({ code: "PAYLOAD_TOO_LARGE", message: "The request body must be 32 kB or smaller." });
  });

  it("refuses a streamed multipart body past the platform's 4.5 MB with 413 PAYLOAD_TOO_LARGE", async () => {
    const res = await post(step1, "/api/onboarding/step1", "multipart/form-data; boundary=x", MAX_REQUEST_BYTES + 1);
    expect(res.status).toBe(413);
    expect(res.json.error).toEqual({ code: "PAYLOAD_TOO_LARGE", message: "The request body must be 4.5 MB or smaller." });
  });

  it("reads a small streamed JSON body as usual", async () => {
    const res = await post(createCouple, "/api/v2/couples", "application/json", 10);
    // Ten bytes of "a" are not JSON: the body was read, then refused as JSON, not as too large.
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_ERROR");
  });
});
