import { afterEach, describe, expect, it, vi } from "vitest";
import { LocationRefusedError, LocationSearchError, normalizeLocation, searchLocations } from "@/lib/locations/client/api";

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const lisbon = {
  place_id: "geonames:2267057",
  description: "Lisbon, Lisbon, Portugal",
  structured_formatting: { main_text: "Lisbon", secondary_text: "Lisbon, Portugal" },
};

function stubFetch(...answers: (Response | Error)[]) {
  const fetch = vi.fn(async (_url: string, _init?: RequestInit) => {
    const answer = answers.shift();
    if (!answer) throw new Error("unexpected request");
    if (answer instanceof Error) throw answer;
    return answer;
  });
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe("location search from the browser", () => {
  it("asks the public search for 5 suggestions of the trimmed text", async () => {
    const fetch = stubFetch(json({ success: true, data: { predictions: [lisbon] } }));
    await expect(searchLocations("  lisbon ")).resolves.toEqual([lisbon]);
    expect(fetch.mock.calls[0]![0]).toBe("/api/locations/search/public?query=lisbon&limit=5");
  });

  it("names the search session, so its keystrokes and the pick are billed as one", async () => {
    const fetch = stubFetch(json({ success: true, data: { predictions: [lisbon] } }));
    await searchLocations("lisbon", undefined, "3519edfe-0f75-4a30-bfe4-7cbd89340b2c");
    expect(fetch.mock.calls[0]![0]).toBe(
      "/api/locations/search/public?query=lisbon&limit=5&session_token=3519edfe-0f75-4a30-bfe4-7cbd89340b2c",
    );
  });

  it.each([
    ["a network failure", new TypeError("Failed to fetch"), "Unable to search locations. Please check your internet connection."],
    [
      "a 502",
      json({ error: { code: "PLACES_SERVICE_FAILED", message: "down" } }, 502),
      "Unable to search locations. The service is temporarily unavailable. Please try again later.",
    ],
    [
      "a 503",
      new Response("busy", { status: 503 }),
      "Unable to search locations. The service is temporarily unavailable. Please try again later.",
    ],
    [
      "a refused query",
      json({ error: { code: "VALIDATION_ERROR", message: "query too long" } }, 400),
      "Unable to search locations. Please type your location manually or try again.",
    ],
    [
      "an unreadable answer",
      new Response("<html>", { status: 200 }),
      "Unable to search locations. Please type your location manually or try again.",
    ],
  ])("explains %s with the spec's text", async (_, answer, message) => {
    stubFetch(answer);
    const failure = searchLocations("lisbon");
    await expect(failure).rejects.toBeInstanceOf(LocationSearchError);
    await expect(failure).rejects.toThrow(message);
  });

  it("passes an abort through as an abort, not a failure", async () => {
    const controller = new AbortController();
    controller.abort();
    stubFetch(new DOMException("aborted", "AbortError"));
    await expect(searchLocations("lisbon", controller.signal)).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("normalizing a chosen place from the browser", () => {
  const input = {
    placeId: lisbon.place_id,
    entityType: "user" as const,
    entityId: "5d3c8f0e-4c44-4b39-a7a4-6f0c6d3d2a11",
    privacyLevel: "city" as const,
  };
  const location = {
    id: "l1",
    place_id: lisbon.place_id,
    display_location: lisbon.description,
    display_coordinates: { lat: 38.72, lng: -9.13 },
    privacy_level: "city",
  };

  /** The CSRF token is kept per page (tests/unit/http-client.test.ts), so it is served whenever asked. */
  function stubWithToken(...answers: Response[]) {
    const fetch = vi.fn(async (url: string, _init?: RequestInit) =>
      url === "/api/csrf-token" ? json({ csrfToken: "t0k3n" }) : answers.shift()!,
    );
    vi.stubGlobal("fetch", fetch);
    return () => fetch.mock.calls.filter(([url]) => url !== "/api/csrf-token");
  }

  it("sends the CSRF token and the spec's body", async () => {
    const sent = stubWithToken(json({ success: true, location }));
    await expect(normalizeLocation(input)).resolves.toEqual(location);
    const [url, init = {}] = sent()[0]!;
    expect(url).toBe("/api/locations/normalize");
    expect(init.method).toBe("POST");
    expect(new Headers(init.headers).get("X-CSRF-Token")).toBe("t0k3n");
    expect(JSON.parse(init.body as string)).toEqual({
      place_id: lisbon.place_id,
      entity_type: "user",
      entity_id: input.entityId,
      privacy_level: "city",
    });
  });

  it("sends the search session the pick ends", async () => {
    const sent = stubWithToken(json({ success: true, location }));
    await normalizeLocation({ ...input, sessionToken: "3519edfe-0f75-4a30-bfe4-7cbd89340b2c" });
    expect(JSON.parse(sent()[0]![1]!.body as string)).toMatchObject({ session_token: "3519edfe-0f75-4a30-bfe4-7cbd89340b2c" });
  });

  it("leaves privacy_level out when none is chosen, so the server keeps the saved level", async () => {
    const sent = stubWithToken(json({ success: true, location }));
    const { privacyLevel: _level, ...withoutLevel } = input;
    await normalizeLocation(withoutLevel);
    expect(JSON.parse(sent()[0]![1]!.body as string)).toEqual({
      place_id: lisbon.place_id,
      entity_type: "user",
      entity_id: input.entityId,
    });
  });

  it("tells a refused place apart from a failure to ask", async () => {
    stubWithToken(
      json({ error: { code: "INVALID_LOCATION_DATA", message: "The location data is invalid. Please select your location again." } }, 400),
    );
    await expect(normalizeLocation(input)).rejects.toBeInstanceOf(LocationRefusedError);

    stubWithToken(json({ error: { code: "PLACES_SERVICE_FAILED", message: "maps down" } }, 502));
    const failure = normalizeLocation(input);
    await expect(failure).rejects.not.toBeInstanceOf(LocationRefusedError);
    await expect(failure).rejects.toThrow("maps down");

    stubWithToken(new Response("<html>", { status: 500 }));
    await expect(normalizeLocation(input)).rejects.toThrow("Request failed with status 500");
  });
});
