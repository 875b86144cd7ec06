/** The shapes of the spec's location calls (section 3), shared by every places provider. */
export type Prediction = {
  place_id: string;
  description: string;
  structured_formatting: { main_text: string; secondary_text: string };
};

export type PlaceDetails = {
  place_id: string;
  formatted_address: string;
  name: string;
  geometry: { location: { lat: number; lng: number } };
  city: string | null;
  state: string | null;
  country: string | null;
  countryCode: string | null;
};

/** One small interface, so the UI and the API run the same with Google or offline. */
export interface PlacesProvider {
  readonly name: "google" | "gazetteer";
  /**
   * `sessionToken`: the browser's one search session (from the first keystroke to the pick),
   * which a billed provider groups into one session with the details call that ends it; a
   * provider that bills nothing ignores it.
   */
  autocomplete(query: string, limit: number, sessionToken?: string): Promise<Prediction[]>;
  /** null when the id is unknown to the provider. `sessionToken`: the search session this pick ends. */
  details(placeId: string, sessionToken?: string): Promise<PlaceDetails | null>;
}

/** Thrown when a remote provider fails (network, quota, 5xx): not the caller's fault. */
export class PlacesServiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PlacesServiceError";
  }
}
