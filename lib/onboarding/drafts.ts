/**
 * Onboarding form drafts (spec section 3, drafts): kept in session storage under
 * `{userId}:{form}`, so a reload keeps what was typed and the chosen photo previews. Pure apart
 * from the Storage handed in; a draft that does not parse is ignored, never trusted.
 */
import { z } from "zod";
import { locationDetailsShape, type OnboardingLocation } from "./client/location";
import type { PickedPhoto } from "./client/photo";
import { currentCoupleTypes } from "@/lib/couples/rules";

export type DraftForm = "individual_profile" | "couple_profile";
export const draftKey = (userId: string, form: DraftForm) => `${userId}:${form}`;

export type IndividualDraft = {
  userImage: PickedPhoto | null;
  occupation: string;
  interests: string[];
  location: OnboardingLocation | null;
};

export type CoupleDraft = {
  couple_name: string;
  coupleTypes: string[];
  bio: string;
  coupleProfileImage: PickedPhoto | null;
  couplePhotos: PickedPhoto[];
};

const photoSchema = z.object({
  // Only an image the browser itself encoded: a draft never points the preview elsewhere.
  dataUrl: z.string().startsWith("data:image/"),
  name: z.string(),
  size: z.number().nonnegative(),
  width: z.number().positive(),
  height: z.number().positive(),
}) satisfies z.ZodType<PickedPhoto>;

/** A typed location (no place id) is kept too: the step then asks for a suggestion. */
const locationSchema = z.object({ location: z.string().min(1), placeId: z.string(), ...locationDetailsShape }) satisfies z.ZodType<OnboardingLocation>;

const texts = z.array(z.string());

const individualSchema = z.object({
  userImage: photoSchema.nullable().catch(null),
  occupation: z.string().catch(""),
  interests: texts.catch([]),
  location: locationSchema.nullable().catch(null),
});

const coupleSchema = z.object({
  couple_name: z.string().catch(""),
  // Styles renamed since the draft was saved are dropped, never sent.
  coupleTypes: texts.catch([]).transform(currentCoupleTypes),
  bio: z.string().catch(""),
  coupleProfileImage: photoSchema.nullable().catch(null),
  couplePhotos: z.array(photoSchema).catch([]),
});

function read<T>(storage: Storage | null, key: string, schema: z.ZodType<T>): T | null {
  try {
    const raw = storage?.getItem(key);
    if (!raw) return null;
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Writes the draft; when storage refuses it (quota), the photos are dropped and the text kept;
 * when even that fails the form carries on without a draft.
 */
function write<T>(storage: Storage | null, key: string, draft: T, withoutPhotos: (draft: T) => T): void {
  if (!storage) return;
  try {
    storage.setItem(key, JSON.stringify(draft));
  } catch {
    try {
      storage.setItem(key, JSON.stringify(withoutPhotos(draft)));
    } catch {
      // A draft is a convenience; typing goes on without one.
    }
  }
}

export const loadIndividualDraft = (storage: Storage | null, userId: string): IndividualDraft | null =>
  read(storage, draftKey(userId, "individual_profile"), individualSchema);

export const saveIndividualDraft = (storage: Storage | null, userId: string, draft: IndividualDraft) =>
  write(storage, draftKey(userId, "individual_profile"), draft, (d) => ({ ...d, userImage: null }));

export const loadCoupleDraft = (storage: Storage | null, userId: string): CoupleDraft | null =>
  read(storage, draftKey(userId, "couple_profile"), coupleSchema);

export const saveCoupleDraft = (storage: Storage | null, userId: string, draft: CoupleDraft) =>
  write(storage, draftKey(userId, "couple_profile"), draft, (d) => ({ ...d, coupleProfileImage: null, couplePhotos: [] }));

export function clearDraft(storage: Storage | null, userId: string, form: DraftForm): void {
  try {
    storage?.removeItem(draftKey(userId, form));
  } catch {
    // Nothing to clear in a storage that cannot be reached.
  }
}

/** The tab's session storage, or null where the browser forbids it (privacy modes, sandboxed frames). */
export function sessionStore(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    return null;
  }
}
