/**
 * The onboarding step forms (spec section 5): which fields each step asks for, in the spec's
 * check order. Pure and browser-safe, so the react-hook-form resolver and the server share them.
 * Each field's own rule belongs to its owner (lib/profile, lib/couples, lib/interests,
 * lib/locations); the flow only puts them together.
 */
import { z } from "zod";
import { coupleBioField, coupleNameField, coupleTypesField } from "@/lib/couples/schemas";
import { interestsField } from "@/lib/interests/schemas";
import { locationField, locationNameField } from "@/lib/locations/schemas";
import { occupationField } from "@/lib/profile/schemas";

/** Keys in the spec's check order, so the first issue is the message a user sees first. */
export const step1Schema = z.object({
  locationPlaceId: locationField,
  locationName: locationNameField,
  occupation: occupationField,
  interests: interestsField,
});
export type Step1Input = z.output<typeof step1Schema>;

export const step2Schema = z.object({
  couple_name: coupleNameField,
  coupleTypes: coupleTypesField,
  bio: coupleBioField,
});
export type Step2Input = z.output<typeof step2Schema>;

/** Step 1's answer (lib/onboarding/service Step1Result), read in the browser only as far as the flow needs it. */
export const step1AnswerSchema = z.object({
  data: z.object({
    avatarUrl: z.string(),
    occupation: z.string(),
    interests: z.array(z.string()),
    location: z.object({ location: z.string(), placeId: z.string() }),
    isPartnerB: z.boolean(),
  }),
});
