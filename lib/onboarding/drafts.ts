/**
 * Onboarding form drafts (spec section 3, drafts): kept in session storage under
 * `{userId}:{form}` (and the photos under `{userId}:{form}:photos`), so a reload keeps what was
 * typed and the chosen photo previews. Pure apart
 * from the Storage handed in; a draft that does not parse is ignored, never trusted.
 */
import { z } from "zod";
import { locationDetailsShape, type OnboardingLocation } from "@/lib/locations/client/saved-location";
import type { PickedPhoto } from "@/lib/images/client/photo";
import { currentCoupleTypes } from "@/lib/couples/rules";

/** The onboarding forms, and the forum's composer and reply field (one reply draft per post). */
export type DraftForm = "individual_profile" | "couple_profile" | "forum_post" | `forum_reply:${string}`;
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

/** One form's draft: its text fields under `{userId}:{form}`, its photos under `{userId}:{form}:photos`. */
export type DraftStore<T> = {
  form: DraftForm;
  /** The photo fields: kept apart, so typing never re-serializes the photos' data URLs. */
  photoFields: readonly (keyof T)[];
  load(storage: Storage | null, userId: string): T | null;
  /** Writes the text fields (call it as the user types). */
  saveText(storage: Storage | null, userId: string, draft: T): void;
  /** Writes the photos (call it only when a photo changed); too large for storage, they are dropped, the text kept. */
  savePhotos(storage: Storage | null, userId: string, draft: T): void;
};

function read(storage: Storage | null, key: string): unknown {
  try {
    const raw = storage?.getItem(key);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

/** Writes or, when storage refuses it (quota), removes the key; a draft is a convenience, typing goes on without one. */
function write(storage: Storage | null, key: string, value: unknown): void {
  try {
    storage?.setItem(key, JSON.stringify(value));
  } catch {
    try {
      storage?.removeItem(key);
    } catch {
      // Nothing to remove in a storage that cannot be reached.
    }
  }
}

const photosKey = (userId: string, form: DraftForm) => `${draftKey(userId, form)}:photos`;

export function draftStore<T extends Record<string, unknown>>(form: DraftForm, schema: z.ZodType<T>, photoFields: readonly (keyof T)[]): DraftStore<T> {
  const split = (draft: T) => {
    const text: Record<string, unknown> = { ...draft };
    const photos: Record<string, unknown> = {};
    for (const field of photoFields) {
      photos[field as string] = draft[field];
      delete text[field as string];
    }
    return { text, photos };
  };
  return {
    form,
    photoFields,
    load(storage, userId) {
      const text = read(storage, draftKey(userId, form));
      if (!text || typeof text !== "object") return null;
      const photos = read(storage, photosKey(userId, form));
      const parsed = schema.safeParse({ ...(photos && typeof photos === "object" ? photos : {}), ...text });
      return parsed.success ? parsed.data : null;
    },
    saveText: (storage, userId, draft) => write(storage, draftKey(userId, form), split(draft).text),
    savePhotos: (storage, userId, draft) => write(storage, photosKey(userId, form), split(draft).photos),
  };
}

export const individualDraft = draftStore<IndividualDraft>(
  "individual_profile",
  z.object({
    userImage: photoSchema.nullable().catch(null),
    occupation: z.string().catch(""),
    interests: texts.catch([]),
    location: locationSchema.nullable().catch(null),
  }),
  ["userImage"],
);

export const coupleDraft = draftStore<CoupleDraft>(
  "couple_profile",
  z.object({
    couple_name: z.string().catch(""),
    // Styles renamed since the draft was saved are dropped, never sent.
    coupleTypes: texts.catch([]).transform(currentCoupleTypes),
    bio: z.string().catch(""),
    coupleProfileImage: photoSchema.nullable().catch(null),
    couplePhotos: z.array(photoSchema).catch([]),
  }),
  ["coupleProfileImage", "couplePhotos"],
);

export function clearDraft(storage: Storage | null, userId: string, form: DraftForm): void {
  try {
    storage?.removeItem(draftKey(userId, form));
    storage?.removeItem(photosKey(userId, form));
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
