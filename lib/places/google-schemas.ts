/** Google Places API (New)'s answers, as lib/places/google.ts reads them. */
import { z } from "zod";

const text = z.object({ text: z.string() }).optional();
export const AutocompleteResponse = z.object({
  suggestions: z
    .array(
      z.object({
        placePrediction: z
          .object({ placeId: z.string(), text, structuredFormat: z.object({ mainText: text, secondaryText: text }).optional() })
          .optional(),
      }),
    )
    .default([]),
});

export const DetailsResponse = z.object({
  id: z.string(),
  displayName: text,
  formattedAddress: z.string().optional(),
  location: z.object({ latitude: z.number(), longitude: z.number() }).optional(),
  addressComponents: z.array(z.object({ longText: z.string(), shortText: z.string().optional(), types: z.array(z.string()) })).default([]),
});

/** Google's error body; a reason such as API_KEY_INVALID says the key, not the request, is at fault. */
export const ErrorResponse = z.object({
  error: z.object({ details: z.array(z.object({ reason: z.string().optional() }).loose()).default([]) }).loose(),
});
