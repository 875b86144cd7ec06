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
  autocomplete(query: string, limit: number): Promise<Prediction[]>;
  /** null when the id is unknown to the provider. */
  details(placeId: string): Promise<PlaceDetails | null>;
}

/** Thrown when a remote provider fails (network, quota, 5xx): not the caller's fault. */
export class PlacesServiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PlacesServiceError";
  }
}
