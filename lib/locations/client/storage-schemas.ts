/**
 * What this browser keeps about places, as it is read back (spec sections 3 and 9): the
 * onboarding location in session storage and the search cache's entries in local storage. A
 * kept value that does not parse is ignored, never trusted.
 */
import { z } from "zod";
import { PRIVACY_LEVELS } from "@/lib/locations/privacy";

/** The optional parts of an onboarding location, as kept in browser storage (the saved location and the step 1 draft). */
export const locationDetailsShape = {
  latitude: z.number().finite().optional(),
  longitude: z.number().finite().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  country: z.string().optional(),
  countryCode: z.string().optional(),
  privacyLevel: z.enum(PRIVACY_LEVELS).optional(),
};

const text = z.string().trim().min(1);
export const savedLocationSchema = z.object({ location: text, placeId: text, ...locationDetailsShape, timestamp: z.number() });

const predictionSchema = z.object({
  place_id: z.string(),
  description: z.string(),
  structured_formatting: z.object({ main_text: z.string(), secondary_text: z.string() }),
});
export const searchCacheEntrySchema = z.object({ query: z.string(), results: z.array(predictionSchema), timestamp: z.number() });
export type SearchCacheEntry = z.infer<typeof searchCacheEntrySchema>;
