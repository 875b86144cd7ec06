import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { assertStorageKey, contentTypeOfKey, isPrivateKey, PUBLIC_OBJECT_CACHE_CONTROL } from "./keys";
import type { ImageStorage } from "./types";
import { isSlash, trimEndWhere } from "@/lib/trim-end";

export type S3Settings = {
  bucket: string;
  /**
   * Where private keys go (S3_PRIVATE_BUCKET, else the same bucket): a bucket nothing public reads.
   * Sharing the public bucket is safe only where its public access leaves the private folders out.
   */
  privateBucket: string;
  region: string;
  /** Set for S3-compatible services (R2, MinIO, ...); unset for AWS itself. */
  endpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Base URL browsers load objects from (bucket website or CDN). */
  publicUrl: string;
};

/**
 * How long one call to storage may take, per attempt (the SDK tries a failed call again): the
 * SDK's own default is to wait for ever, so a stalled service held an upload, a private photo's
 * read or a deletion until the platform killed the function. Images are at most a few hundred kB;
 * with the SDK's three attempts a stalled call fails within about 15 s.
 */
const CONNECT_TIMEOUT_MS = 3_000;
const REQUEST_TIMEOUT_MS = 5_000;

/** A public object as keys.ts says; a private one, nobody. */
const PRIVATE = "private, no-store";

/** S3-compatible storage; browsers load public objects straight from `publicUrl`, not via this app. */
export function createS3Storage(settings: S3Settings): ImageStorage {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    // Most S3-compatible services need path-style addressing; AWS itself does not.
    forcePathStyle: Boolean(settings.endpoint),
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // throwOnRequestTimeout: without it the SDK only logs a warning when the time is up, and waits on.
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, throwOnRequestTimeout: true },
  });
  const base = trimEndWhere(settings.publicUrl, isSlash);

  const bucketOf = (key: string) => (isPrivateKey(key) ? settings.privateBucket : settings.bucket);

  return {
    async put(key, buffer, contentType) {
      assertStorageKey(key);
      const secret = isPrivateKey(key);
      await client.send(
        new PutObjectCommand({
          Bucket: bucketOf(key),
          Key: key,
          Body: buffer,
          ContentType: contentType,
          CacheControl: secret ? PRIVATE : PUBLIC_OBJECT_CACHE_CONTROL,
        }),
      );
      return { url: secret ? null : `${base}/${key}` };
    },
    async read(key) {
      assertStorageKey(key);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucketOf(key), Key: key }));
        if (!object.Body) return null;
        return { body: Buffer.from(await object.Body.transformToByteArray()), contentType: contentTypeOfKey(key)! };
      } catch (error) {
        // A missing key: NoSuchKey where the service says so in its body, else a bare 404.
        if (error instanceof NoSuchKey || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
          return null;
        throw error;
      }
    },
    async delete(key) {
      assertStorageKey(key);
      // S3 answers a delete of a missing key with success, which is the contract we want.
      await client.send(new DeleteObjectCommand({ Bucket: bucketOf(key), Key: key }));
    },
  };
}
