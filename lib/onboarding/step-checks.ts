/**
 * The onboarding forms' checks before upload (spec section 5) and their save errors (section 8).
 * Pure and browser-safe: the limits and messages are the server's own, from the fields' owners.
 */
import { COUPLE_MESSAGES, EXTRA_PHOTOS_MAX, tooManyPhotosMessage } from "@/lib/couples/rules";
import { PROFILE_MESSAGES } from "@/lib/profile/rules";
import { step1Schema, step2Schema } from "./schemas";

/** Field name to its first message, in the spec's check order (the first key is the first problem). */
export type StepErrors<F extends string> = Partial<Record<F, string>>;

export type Step1Field = "userImage" | "location" | "occupation" | "interests";
export type Step1Facts = {
  hasPhoto: boolean;
  location: { location: string; placeId: string } | null;
  occupation: string;
  interests: readonly string[];
};

const schemaMessages = (issues: readonly { path: PropertyKey[]; message: string }[]) => {
  const messages = new Map<string, string>();
  for (const issue of issues) {
    const key = String(issue.path[0] ?? "_");
    if (!messages.has(key)) messages.set(key, issue.message);
  }
  return messages;
};

/** Photo, then a location chosen from the suggestions, then occupation, then interests. */
export function step1Errors(facts: Step1Facts): StepErrors<Step1Field> {
  const parsed = step1Schema.safeParse({
    locationPlaceId: facts.location?.placeId ?? "",
    locationName: facts.location?.location ?? "",
    occupation: facts.occupation,
    interests: facts.interests,
  });
  const found = parsed.success ? new Map<string, string>() : schemaMessages(parsed.error.issues);
  const errors: StepErrors<Step1Field> = {};
  if (!facts.hasPhoto) errors.userImage = PROFILE_MESSAGES.photoRequired;
  const location = found.get("locationPlaceId") ?? found.get("locationName");
  if (location) errors.location = location;
  if (found.has("occupation")) errors.occupation = found.get("occupation");
  if (found.has("interests")) errors.interests = found.get("interests");
  return errors;
}

export type Step2Field = "couple_name" | "coupleProfileImage" | "coupleTypes" | "bio" | "couplePhotos";
export type Step2Facts = {
  couple_name: string;
  hasMainPhoto: boolean;
  coupleTypes: readonly string[];
  bio: string;
  extraPhotoCount: number;
};

/** Couple name, main photo, adventure styles, bio; then the extra photos' limit. */
export function step2Errors(facts: Step2Facts): StepErrors<Step2Field> {
  const parsed = step2Schema.safeParse({ couple_name: facts.couple_name, coupleTypes: facts.coupleTypes, bio: facts.bio });
  const found = parsed.success ? new Map<string, string>() : schemaMessages(parsed.error.issues);
  const errors: StepErrors<Step2Field> = {};
  if (found.has("couple_name")) errors.couple_name = found.get("couple_name");
  if (!facts.hasMainPhoto) errors.coupleProfileImage = COUPLE_MESSAGES.mainPhotoRequired;
  if (found.has("coupleTypes")) errors.coupleTypes = found.get("coupleTypes");
  if (found.has("bio")) errors.bio = found.get("bio");
  if (facts.extraPhotoCount > EXTRA_PHOTOS_MAX) errors.couplePhotos = tooManyPhotosMessage(facts.extraPhotoCount);
  return errors;
}

export const SAVE_FAILED = {
  step1: "Failed to save your information. Please try again.",
  step2: "Failed to save your couple profile. Please try again.",
} as const;

const CHECK_FIELDS = "Please check that all information is filled out correctly.";

/** Codes whose server message is already the spec's text for the user (not a form problem). */
const VERBATIM = (code: string) => code !== "VALIDATION_ERROR" && code !== "INTERNAL_ERROR";

/**
 * What a failed save says (spec section 8). A server error with a code of its own (maps service
 * down, session ended) keeps the server's text; anything else is chosen by keywords of the
 * message, then by a validation code. Messages the server sent for one field are shown on that
 * field instead, never through here.
 */
export function saveErrorMessage(step: keyof typeof SAVE_FAILED, message: string, code?: string): string {
  if (code && VERBATIM(code) && message) return message;
  const text = message.toLowerCase();
  if (text.includes("validation")) return CHECK_FIELDS;
  if (text.includes("timeout") || text.includes("timed out")) return "The request timed out. Please check your connection and try again.";
  if (text.includes("file") || text.includes("image")) return "There was an issue uploading your images. Please try again.";
  if (code === "VALIDATION_ERROR") return CHECK_FIELDS;
  return SAVE_FAILED[step];
}
