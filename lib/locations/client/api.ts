/**
 * The browser's calls for locations (spec section 7): public search and normalizing a chosen
 * place, through the transport (lib/transport/client.ts). Browser only; failures carry the spec's
 * texts (section 8).
 */
import "client-only";
import { api, ApiError } from "@/lib/transport/client";
import type { Prediction } from "@/lib/places/types";
import type { NormalizedLocation, PrivacyLevel } from "../privacy";
import { SEARCH_DEFAULT_LIMIT, searchFailureMessage, type SearchFailureReason } from "../rules";

/** 50x answers mean the service is down; other answers (a refused query) leave typing it by hand. */
const searchFailureReason = (status: number): SearchFailureReason => (status >= 500 && status < 600 ? "unavailable" : "other");

export class LocationSearchError extends Error {
  constructor(readonly reason: SearchFailureReason) {
    super(searchFailureMessage(reason));
    this.name = "LocationSearchError";
  }
}

/**
 * Throws LocationSearchError (or the AbortError of `signal`). A type-ahead: a late answer is stale
 * by the next keystroke, so a failure is not tried again (the search cache is the fallback).
 * `sessionToken`: the search session (useLocationSearch), billed as one with the pick that ends it.
 */
export async function searchLocations(query: string, signal?: AbortSignal, sessionToken?: string): Promise<Prediction[]> {
  const params = new URLSearchParams({ query: query.trim(), limit: String(SEARCH_DEFAULT_LIMIT) });
  if (sessionToken) params.set("session_token", sessionToken);
  let body: { success?: boolean; data?: { predictions?: Prediction[] } } | null;
  try {
    body = await api(`/api/locations/search/public?${params}`, { signal, retries: 0, public: true });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    throw new LocationSearchError(error.status === 0 ? "network" : searchFailureReason(error.status));
  }
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

/**
 * Without `privacyLevel` the server keeps the level the entity's location has (city for a new one).
 * `sessionToken`: the search session the pick ends.
 */
export type NormalizeRequest = {
  placeId: string;
  entityType: "user" | "couple";
  entityId: string;
  privacyLevel?: PrivacyLevel;
  sessionToken?: string;
};

/**
 * Saves the chosen place as the entity's location on the server. Throws LocationRefusedError
 * when the server refuses the place itself (INVALID_LOCATION_DATA); any other Error otherwise.
 */
export async function normalizeLocation(input: NormalizeRequest): Promise<NormalizedLocation> {
  const body = {
    place_id: input.placeId,
    entity_type: input.entityType,
    entity_id: input.entityId,
    ...(input.privacyLevel && { privacy_level: input.privacyLevel }),
    ...(input.sessionToken && { session_token: input.sessionToken }),
  };
  try {
    const answer = await api<{ success?: boolean; location?: NormalizedLocation } | null>("/api/locations/normalize", {
      method: "POST",
      body,
    });
    if (answer?.success && answer.location) return answer.location;
  } catch (error) {
    if (error instanceof ApiError && error.code === "INVALID_LOCATION_DATA") throw new LocationRefusedError(error.code, error.message);
    throw error;
  }
  // Section 8's text for an answer of the wrong shape.
  throw new Error("Invalid response structure from backend");
}
