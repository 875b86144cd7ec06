import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { imageResponse } from "@/lib/images/serve";
import { imageStorage } from "@/lib/storage";
import { pendingSelfieKey } from "@/lib/verification/queries";
import { verificationParamsSchema } from "@/lib/verification/schemas";

/** A pending verification selfie, to moderators and admins only (members: 403); once decided it is gone (404). */
export const GET = route({ access: "moderator", params: verificationParamsSchema }, async ({ db, moderator, params, request }) => {
  const notFound = new AppError("NOT_FOUND", "Image not found.");
  const key = await pendingSelfieKey(db, moderator, params.id);
  const stored = key ? await (await imageStorage()).read(key) : null;
  if (!key || !stored) throw notFound;
  return imageResponse(request, key, stored, "unkept");
});
