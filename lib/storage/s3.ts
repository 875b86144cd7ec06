import { DeleteObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { assertStorageKey } from "./keys";
import type { ImageStorage } from "./types";
import { isSlash, trimEndWhere } from "@/lib/trim-end";

export type S3Settings = {
  bucket: string;
  region: string;
  /** Set for S3-compatible services (R2, MinIO, ...); unset for AWS itself. */
  endpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Base URL browsers load objects from (bucket website or CDN). */
  publicUrl: string;
};

/** Keys never change content, so caches may keep an object for a year. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/** S3-compatible storage; browsers load the objects straight from `publicUrl`, not via this app. */
export function createS3Storage(settings: S3Settings): ImageStorage {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    // Most S3-compatible services need path-style addressing; AWS itself does not.
    forcePathStyle: Boolean(settings.endpoint),
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
  });
  const base = trimEndWhere(settings.publicUrl, isSlash);

  return {
    async put(key, buffer, contentType) {
      assertStorageKey(key);
      await client.send(
        new PutObjectCommand({ Bucket: settings.bucket, Key: key, Body: buffer, ContentType: contentType, CacheControl: IMMUTABLE }),
      );
      return { url: `${base}/${key}` };
    },
    async delete(key) {
      assertStorageKey(key);
      // S3 answers a delete of a missing key with success, which is the contract we want.
      await client.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: key }));
    },
  };
}
