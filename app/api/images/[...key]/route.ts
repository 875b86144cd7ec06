import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { imageKeyParamsSchema } from "@/lib/images/schemas";
import { isStorageKey, localImageStorage } from "@/lib/storage";

/**
 * Serves images stored on local disk. Public like an S3 object URL: keys are 128-bit random ids,
 * so knowing the URL is the permission. Only keys of the exact storage pattern are looked up,
 * so `..`, encoded slashes or other files under the folder can never be reached.
 */
export const GET = route({ access: "public", params: imageKeyParamsSchema }, async ({ params: key }) => {
  const storage = localImageStorage();
  const stored = storage && isStorageKey(key) ? await storage.read(key) : null;
  if (!stored) throw new AppError("NOT_FOUND", "Image not found.");
  return new Response(new Uint8Array(stored.body), {
    headers: {
      "Content-Type": stored.contentType,
      "Content-Length": String(stored.body.byteLength),
      // A key's bytes never change (a new upload gets a new key), so caches may keep it for a year.
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    },
  });
});
