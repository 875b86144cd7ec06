import "server-only";
import { env, missingS3Settings, type Env } from "@/lib/env";
import { createLocalStorage } from "./local";
import type { S3Settings } from "./s3";
import type { ImageStorage } from "./types";

export { contentTypeOfKey, isPrivateKey, isStorageKey, newStorageKey, PUBLIC_OBJECT_CACHE_CONTROL } from "./keys";
export { LOCAL_IMAGE_URL_PREFIX } from "./local";
export type { ImageStorage, StoredObject } from "./types";

type StorageEnv = Pick<
  Env,
  "STORAGE_DIR" | "S3_BUCKET" | "S3_ENDPOINT" | "S3_REGION" | "S3_ACCESS_KEY_ID" | "S3_SECRET_ACCESS_KEY" | "S3_PUBLIC_URL"
> &
  Partial<Pick<Env, "S3_PRIVATE_BUCKET">>;
export type StorageChoice = { kind: "local"; dir: string } | { kind: "s3"; settings: S3Settings };

/**
 * The one place that picks the storage: S3 when S3_BUCKET is set, local disk otherwise. A
 * half-configured S3 fails loudly at start rather than silently writing to local disk.
 */
export function chooseStorage(e: StorageEnv): StorageChoice {
  if (!e.S3_BUCKET) return { kind: "local", dir: e.STORAGE_DIR };
  const missing = missingS3Settings(e);
  if (missing.length) throw new Error(`S3_BUCKET is set, so ${missing.join(", ")} must be set too.`);
  return {
    kind: "s3",
    settings: {
      bucket: e.S3_BUCKET,
      privateBucket: e.S3_PRIVATE_BUCKET!,
      region: e.S3_REGION,
      endpoint: e.S3_ENDPOINT,
      accessKeyId: e.S3_ACCESS_KEY_ID!,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
      publicUrl: e.S3_PUBLIC_URL!,
    },
  };
}

let local: ImageStorage | null | undefined;
let storage: Promise<ImageStorage> | undefined;

/** The local store when images live on this machine (the serving route reads from it); else null. */
export function localImageStorage(): ImageStorage | null {
  if (local === undefined) {
    const choice = chooseStorage(env());
    local = choice.kind === "local" ? createLocalStorage(choice.dir) : null;
  }
  return local;
}

/** The configured storage. The S3 client is loaded only when S3 is configured. */
export function imageStorage(): Promise<ImageStorage> {
  storage ??= (async () => {
    const choice = chooseStorage(env());
    if (choice.kind === "local") return localImageStorage()!;
    const { createS3Storage } = await import("./s3");
    return createS3Storage(choice.settings);
  })();
  return storage;
}
