import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { imageKeyParamsSchema } from "@/lib/images/schemas";
import { imageResponse } from "@/lib/images/serve";
import { isPrivateKey, isStorageKey, localImageStorage } from "@/lib/storage";

/**
 * Serves public images stored on local disk. Public like an S3 object URL: keys are 128-bit
 * random ids, so knowing the URL is the permission. Only keys of the exact storage pattern are
 * looked up, so `..`, encoded slashes or other files under the folder can never be reached; a
 * private key (a conversation's photo) is not served here, whoever asks.
 */
export const GET = route({ access: "public", params: imageKeyParamsSchema }, async ({ params: key, request }) => {
  const storage = localImageStorage();
  const stored = storage && isStorageKey(key) && !isPrivateKey(key) ? await storage.read(key) : null;
  if (!stored) throw new AppError("NOT_FOUND", "Image not found.");
  return imageResponse(request, key, stored, "public");
});
