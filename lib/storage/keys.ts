import { randomBytes } from "node:crypto";

/**
 * Storage keys: `{folder}/{32 random hex}.{ext}`. Random (128 bits) rather than content-addressed,
 * so equal uploads by two users never share an object that one of them may delete, and a key
 * cannot be guessed from a photo. The strict pattern is what makes path traversal impossible:
 * the serving route and the local store accept nothing else.
 */
const EXTENSIONS = { jpg: "image/jpeg", png: "image/png", webp: "image/webp" } as const;
export type StorageExtension = keyof typeof EXTENSIONS;

const KEY_PATTERN = /^[a-z][a-z0-9-]{0,31}\/[0-9a-f]{32}\.(?<extension>jpg|png|webp)$/;
const FOLDER_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

export function newStorageKey(folder: string, extension: StorageExtension = "jpg"): string {
  if (!FOLDER_PATTERN.test(folder)) throw new Error(`Invalid storage folder: ${folder}`);
  return `${folder}/${randomBytes(16).toString("hex")}.${extension}`;
}

export const isStorageKey = (key: string): boolean => KEY_PATTERN.test(key);

/**
 * Folders whose objects are private: never served at a public URL nor cached by anyone but the
 * viewer's browser, only read back through the app by the feature that owns them, for those it
 * lets see them (a conversation's photos: its members; a verification selfie: moderators).
 */
const PRIVATE_FOLDERS: ReadonlySet<string> = new Set(["message-photo", "verification-selfie"]);

export const isPrivateKey = (key: string): boolean => PRIVATE_FOLDERS.has(key.slice(0, key.indexOf("/")));

/** The content type a key is served with, from its fixed extension; null for an invalid key. */
export function contentTypeOfKey(key: string): string | null {
  const match = KEY_PATTERN.exec(key);
  return match ? EXTENSIONS[match.groups!.extension as StorageExtension] : null;
}

export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key).slice(0, 80)}`);
}

/**
 * How public objects may be cached. A key never changes content, so a browser keeps one a year;
 * shared caches (a CDN, a proxy) an hour: a photo taken down (a moderator's removal, a deleted
 * post or account) stops being served by them within the hour, not a year later.
 */
export const PUBLIC_OBJECT_CACHE_CONTROL = "public, max-age=31536000, s-maxage=3600, immutable";
