/**
 * Form drafts (spec section 3, drafts): kept in session storage under `{userId}:{form}` (and the
 * photos under `{userId}:{form}:photos`), so a reload keeps what was typed and the chosen photo
 * previews. Pure apart from the Storage handed in, and zod-free: each form hands in the schema
 * its draft must parse with (a draft that does not parse is ignored, never trusted), or a loader
 * of it (lazyDraftStore). The forms' own stores are in their areas (lib/onboarding/drafts.ts,
 * lib/forum/client/drafts.ts, lib/messages/client/drafts.ts).
 */
/** The onboarding forms, the forum's composer and reply field (one reply draft per post), and a conversation's message field. */
export type DraftForm = "individual_profile" | "couple_profile" | "forum_post" | `forum_reply:${string}` | `message:${string}`;
export const draftKey = (userId: string, form: DraftForm) => `${userId}:${form}`;

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

/** Parses a stored draft: zod's safeParse shape, so a schema can be handed in as it is. */
export type DraftSchema<T> = { safeParse(value: unknown): { success: true; data: T } | { success: false } };

/** What a store's text and photo keys hold, merged (the text wins), or null when there is no draft. */
function readDraft(storage: Storage | null, userId: string, form: DraftForm): Record<string, unknown> | null {
  const text = read(storage, draftKey(userId, form));
  if (!text || typeof text !== "object") return null;
  const photos = read(storage, photosKey(userId, form));
  return { ...(photos && typeof photos === "object" ? photos : {}), ...text };
}

function writers<T extends Record<string, unknown>>(form: DraftForm, photoFields: readonly (keyof T)[]) {
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
    saveText: (storage: Storage | null, userId: string, draft: T) => write(storage, draftKey(userId, form), split(draft).text),
    savePhotos: (storage: Storage | null, userId: string, draft: T) => write(storage, photosKey(userId, form), split(draft).photos),
  };
}

const parseDraft = <T>(schema: DraftSchema<T>, stored: Record<string, unknown> | null): T | null => {
  if (!stored) return null;
  const parsed = schema.safeParse(stored);
  return parsed.success ? parsed.data : null;
};

export function draftStore<T extends Record<string, unknown>>(
  form: DraftForm,
  schema: DraftSchema<T>,
  photoFields: readonly (keyof T)[],
): DraftStore<T> {
  return { ...writers(form, photoFields), load: (storage, userId) => parseDraft(schema, readDraft(storage, userId, form)) };
}

/** A store whose schema (and zod with it) loads the first time a draft is read, so the page's first paint ships none of it. */
export type LazyDraftStore<T> = Omit<DraftStore<T>, "load"> & { load(storage: Storage | null, userId: string): Promise<T | null> };

export function lazyDraftStore<T extends Record<string, unknown>>(
  form: DraftForm,
  loadSchema: () => Promise<DraftSchema<T>>,
  photoFields: readonly (keyof T)[],
): LazyDraftStore<T> {
  return {
    ...writers(form, photoFields),
    async load(storage, userId) {
      const stored = readDraft(storage, userId, form);
      return stored ? parseDraft(await loadSchema(), stored) : null;
    },
  };
}

/** Whether a draft of `form` is kept (parsed or not): a form whose code loads later loads at once for it. */
export const hasDraft = (storage: Storage | null, userId: string, form: DraftForm): boolean => readDraft(storage, userId, form) !== null;

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
