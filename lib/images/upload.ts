import "server-only";
import { AppError } from "@/lib/errors";
import { INVALID_IMAGE_MESSAGE, tooLargeProblem } from "./rules";

/**
 * An uploaded file's bytes, or null when none was picked (browsers send an empty part for an
 * empty file input). Content and size are judged again by the image functions.
 */
export async function uploadedImageBytes(value: FormDataEntryValue | null, field: string): Promise<Buffer | null> {
  if (value === null || value === "") return null;
  const refuse = (message: string) => new AppError("VALIDATION_ERROR", message, { fieldErrors: { [field]: message } });
  if (typeof value === "string") throw refuse(INVALID_IMAGE_MESSAGE);
  if (value.size === 0) return null;
  const tooLarge = tooLargeProblem(value.size);
  if (tooLarge) throw refuse(tooLarge);
  return Buffer.from(await value.arrayBuffer());
}
