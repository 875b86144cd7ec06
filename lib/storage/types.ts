/** Where processed images go. Keys come from `newStorageKey`, never from a user's file name. */
export interface ImageStorage {
  /** Stores the bytes under the key (overwriting) and answers the URL a browser loads them from. */
  put(key: string, buffer: Buffer, contentType: string): Promise<{ url: string }>;
  /** Removes the object; a key that is already gone is not an error. */
  delete(key: string): Promise<void>;
}

/** A stored object read back, for storage served by this app (local disk). */
export type StoredObject = { body: Buffer; contentType: string };
