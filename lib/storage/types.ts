/**
 * Where processed images go. Keys come from `newStorageKey`, never from a user's file name. A key
 * of a private folder (keys.ts `isPrivateKey`) is stored where no public URL reaches it.
 */
export interface ImageStorage {
  /**
   * Stores the bytes under the key (overwriting) and answers the URL a browser loads them from;
   * null for a private key, which only the app reads back (`read`).
   */
  put(key: string, buffer: Buffer, contentType: string): Promise<{ url: string | null }>;
  /** The object, or null when there is none. */
  read(key: string): Promise<StoredObject | null>;
  /** Removes the object; a key that is already gone is not an error. */
  delete(key: string): Promise<void>;
}

/** A stored object read back, for storage served by this app (local disk). */
export type StoredObject = { body: Buffer; contentType: string };
