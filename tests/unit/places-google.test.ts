import { afterEach, describe, expect, it, vi } from "vitest";
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
