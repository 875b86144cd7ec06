import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { imageKeyParamsSchema } from "@/lib/images/schemas";
import { imageResponse } from "@/lib/images/serve";
import { mayViewMessagePhoto, messagePhotoKey, messagePhotoUrl } from "@/lib/messages/photos";
import { imageStorage } from "@/lib/storage";

/** A conversation's photo, to the people of the conversation (and its uploader before it is sent); anyone else 404. */
export const GET = route({ access: "complete-profile", params: imageKeyParamsSchema }, async ({ db, couple, params: key, request }) => {
  const notFound = new AppError("NOT_FOUND", "Image not found.");
  if (messagePhotoKey(messagePhotoUrl(key)) === null) throw notFound;
  if (!(await mayViewMessagePhoto(db, couple, key))) throw notFound;
  const stored = await (await imageStorage()).read(key);
  if (!stored) throw notFound;
  return imageResponse(request, key, stored, "private");
});
