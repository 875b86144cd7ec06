/**
 * The couple's photo gallery in the browser: which picked photos may join it (the couple's
 * limit of extra photos, over the image checks every picker shares).
 */
import "client-only";
import { EXTRA_PHOTOS_MAX, tooManyPhotosMessage } from "@/lib/couples/rules";
import { imageProblem } from "@/lib/images/client/photo";
import { INVALID_IMAGE_MESSAGE, INVALID_IMAGES_MESSAGE } from "@/lib/images/rules";

/**
 * Which of the picked files go on to the crop dialog, and the message to show. Invalid files are
 * skipped; a selection that would pass the limit is refused whole, so the message's count holds.
 */
export function planGalleryAdditions<F extends Pick<File, "name" | "type" | "size">>(
  currentCount: number,
  files: readonly F[],
): { accepted: F[]; error: string | null } {
  const problems = files.map(imageProblem);
  const accepted = files.filter((_, index) => problems[index] === null);
  if (currentCount + accepted.length > EXTRA_PHOTOS_MAX) return { accepted: [], error: tooManyPhotosMessage(currentCount) };
  const error = problems.includes(INVALID_IMAGE_MESSAGE) ? INVALID_IMAGES_MESSAGE : (problems.find((problem) => problem !== null) ?? null);
  return { accepted, error };
}
