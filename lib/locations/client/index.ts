/**
 * The browser's calls for locations (spec section 7): public search and normalizing a chosen
 * place. Browser only; failures carry the spec's texts (section 8).
 */
import "client-only";
import { csrfFetch } from "@/lib/http/csrf-client";
import type { Prediction } from "@/lib/places/types";
import type { NormalizedLocation, PrivacyLevel } from "../privacy";
import { SEARCH_DEFAULT_LIMIT, searchFailureMessage, type SearchFailureReason } from "../plain-rules";

/** 50x answers mean the service is down; other answers (a refused query) leave typing it by hand. */
const searchFailureReason = (status: number): SearchFailureReason => (status >= 500 && status < 600 ? "unavailable" : "other");

export class LocationSearchError extends Error {
  constructor(readonly reason: SearchFailureReason) {
    super(searchFailureMessage(reason));
    this.name = "LocationSearchError";
  }
}

/** Throws LocationSearchError (or the AbortError of `signal`). */
export async function searchLocations(query: string, signal?: AbortSignal): Promise<Prediction[]> {
  const params = new URLSearchParams({ query: query.trim(), limit: String(SEARCH_DEFAULT_LIMIT) });
  let response: Response;
  try {
    response = await fetch(`/api/locations/search/public?${params}`, { signal, headers: { Accept: "application/json" } });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new LocationSearchError("network");
  }
  if (!response.ok) throw new LocationSearchError(searchFailureReason(response.status));
  const body = (await response.json().catch(() => null)) as { success?: boolean; data?: { predictions?: Prediction[] } } | null;
  const predictions = body?.data?.predictions;
  if (!body?.success || !Array.isArray(predictions)) throw new LocationSearchError("other");
  return predictions;
}

/** A definite "no" from the server, as opposed to a failure to ask it. */
export class LocationRefusedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "LocationRefusedError";
  }
}

/** Without `privacyLevel` the server keeps the level the entity's location has (city for a new one). */
export type NormalizeRequest = { placeId: string; entityType: "user" | "couple"; entityId: string; privacyLevel?: PrivacyLevel };

/**
 * Saves the chosen place as the entity's location on the server. Throws LocationRefusedError
 * when the server refuses the place itself (INVALID_LOCATION_DATA); any other Error otherwise.
 */
export async function normalizeLocation(input: NormalizeRequest): Promise<NormalizedLocation> {
  const { ok, status, json } = await csrfFetch("/api/locations/normalize", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      place_id: input.placeId,
      entity_type: input.entityType,
      entity_id: input.entityId,
      ...(input.privacyLevel && { privacy_level: input.privacyLevel }),
    }),
  });
  const body = json as { success?: boolean; location?: NormalizedLocation; error?: { code?: string; message?: string } } | null;
  if (ok && body?.success && body.location) return body.location;
  if (body?.error?.code === "INVALID_LOCATION_DATA")
    throw new LocationRefusedError(
      body.error.code,
      body.error.message ?? "The location data is invalid. Please select your location again.",
    );
  throw new Error(body?.error?.message ?? `Request failed with status ${status}`);
}
