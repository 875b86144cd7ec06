import { afterEach, describe, expect, it, vi } from "vitest";
import { normalizeInputSchema, searchQuerySchema } from "@/lib/locations/schemas";
import { googlePlacesProvider } from "@/lib/places/google";
import { PlacesServiceError } from "@/lib/places/types";

const google = googlePlacesProvider("test-key");

/** Google's answer to every call, as `fetch` would hand it over. */
const answer = (response: () => Response) =>
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => response()),
  );

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("Google Places failures are the provider's failure (PLACES_SERVICE_FAILED), never a crash", () => {
  const calls = [
    ["autocomplete", () => google.autocomplete("lisbon", 5)],
    ["details", () => google.details("ChIJO_PkYRozGQ0R0DaQ5L3rAAQ")],
  ] as const;

  for (const [name, call] of calls) {
    it(`${name}: a body that is not JSON (a proxy's error page)`, async () => {
      answer(() => new Response("<html>Bad gateway</html>", { status: 200, headers: { "content-type": "text/html" } }));
      await expect(call()).rejects.toBeInstanceOf(PlacesServiceError);
    });

    it(`${name}: JSON of another shape`, async () => {
      answer(() => Response.json({ suggestions: "none", id: 42 }));
      await expect(call()).rejects.toBeInstanceOf(PlacesServiceError);
    });

    it(`${name}: the body cut off by the timeout`, async () => {
      answer(
        () =>
          new Response(
            new ReadableStream({
              start(controller) {
                controller.error(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
              },
            }),
          ),
      );
      await expect(call()).rejects.toBeInstanceOf(PlacesServiceError);
    });

    it(`${name}: an over-quota answer (429)`, async () => {
      answer(() => Response.json({ error: { code: 429, status: "RESOURCE_EXHAUSTED" } }, { status: 429 }));
      await expect(call()).rejects.toBeInstanceOf(PlacesServiceError);
    });
  }

  it("details: a rejected key (400 API_KEY_INVALID) is the service failing, not an unknown place", async () => {
    answer(() =>
      Response.json(
        {
          error: {
            code: 400,
            message: "API key not valid. Please pass a valid API key.",
            status: "INVALID_ARGUMENT",
            details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com" }],
          },
        },
        { status: 400 },
      ),
    );
    await expect(google.details("ChIJO_PkYRozGQ0R0DaQ5L3rAAQ")).rejects.toBeInstanceOf(PlacesServiceError);
  });

  it("details: an id Google does not know (404) or cannot read (400 without a key problem) is an unknown place", async () => {
    answer(() => Response.json({ error: { code: 404, status: "NOT_FOUND" } }, { status: 404 }));
    await expect(google.details("ChIJunknown")).resolves.toBeNull();
    answer(() => Response.json({ error: { code: 400, message: "Not a valid Place ID", status: "INVALID_ARGUMENT" } }, { status: 400 }));
    await expect(google.details("not-an-id")).resolves.toBeNull();
  });
});

describe("one autocomplete session per place picked (Places API (New) session tokens)", () => {
  const token = "3519edfe-0f75-4a30-bfe4-7cbd89340b2c";
  const lisbon = {
    id: "ChIJO_PkYRozGQ0R0DaQ5L3rAAQ",
    displayName: { text: "Lisbon", languageCode: "en" },
    formattedAddress: "Lisbon, Portugal",
    location: { latitude: 38.72, longitude: -9.14 },
    addressComponents: [
      { longText: "Lisbon", shortText: "Lisbon", types: ["locality", "political"] },
      { longText: "Portugal", shortText: "PT", types: ["country", "political"] },
    ],
  };
  /** Every request Google was sent, as [url, init]. */
  const sent = (answerWith: () => Response) => {
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => answerWith());
    vi.stubGlobal("fetch", fetch);
    return fetch.mock.calls;
  };

  it("autocomplete sends the session's token in its body", async () => {
    const calls = sent(() => Response.json({ suggestions: [] }));
    await google.autocomplete("lisbon", 5, token);
    expect(JSON.parse(String(calls[0]![1].body))).toMatchObject({ input: "lisbon", sessionToken: token });
  });

  it("details sends the same token, which ends the session", async () => {
    const calls = sent(() => Response.json(lisbon));
    await google.details(lisbon.id, token);
    expect(new URL(calls[0]![0]).searchParams.get("sessionToken")).toBe(token);
  });

  it("without a token neither call names one (a lookup outside a search session)", async () => {
    const calls = sent(() => Response.json({ suggestions: [] }));
    await google.autocomplete("lisbon", 5);
    expect(JSON.parse(String(calls[0]![1].body))).not.toHaveProperty("sessionToken");
    const detailCalls = sent(() => Response.json(lisbon));
    await google.details(lisbon.id);
    expect(new URL(detailCalls[0]![0]).searchParams.has("sessionToken")).toBe(false);
  });

  it("details asks for the place's own name (a Pro field: the session's keystrokes before the pick are then free) and names the place by it", async () => {
    const calls = sent(() => Response.json(lisbon));
    const details = await google.details(lisbon.id, token);
    const mask = new Headers(calls[0]![1].headers).get("X-Goog-FieldMask")!.split(",");
    expect(mask.sort()).toEqual(["addressComponents", "displayName", "formattedAddress", "id", "location"]);
    expect(details).toMatchObject({ name: "Lisbon", formatted_address: "Lisbon, Portugal", city: "Lisbon", countryCode: "PT" });
  });
});

describe("the session token from the browser is checked at the edge", () => {
  const token = "3519edfe-0f75-4a30-bfe4-7cbd89340b2c";
  const entity = { place_id: "ChIJO_PkYRozGQ0R0DaQ5L3rAAQ", entity_type: "user", entity_id: "6f1c2e3a-1b2c-4d5e-8f90-123456789abc" };

  it("a UUID passes through search and normalize", () => {
    expect(searchQuerySchema.parse({ query: "lisbon", session_token: token }).sessionToken).toBe(token);
    expect(normalizeInputSchema.parse({ ...entity, session_token: token.toUpperCase() }).sessionToken).toBe(token);
  });

  it("left out, there is no session", () => {
    expect(searchQuerySchema.parse({ query: "lisbon" }).sessionToken).toBeUndefined();
    expect(normalizeInputSchema.parse(entity).sessionToken).toBeUndefined();
  });

  for (const bad of ["", "not a token", "x".repeat(37), "3519edfe-0f75-4a30-bfe4-7cbd89340b2c/../", "<script>"]) {
    it(`anything else is refused (400), never sent to Google: ${JSON.stringify(bad.slice(0, 20))}`, () => {
      const search = searchQuerySchema.safeParse({ query: "lisbon", session_token: bad });
      expect(search.success).toBe(false);
      expect(search.error?.issues[0]?.message).toBe("session_token must be a UUID");
      expect(normalizeInputSchema.safeParse({ ...entity, session_token: bad }).success).toBe(false);
    });
  }
});
