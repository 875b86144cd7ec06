import "server-only";
import type { z } from "zod";
import { AppError } from "@/lib/errors";
import { validationError } from "@/lib/http/errors";
import { MAX_IMAGE_BYTES, TOO_LARGE_MESSAGE, uploadedImageBytes } from "@/lib/images";
import { EXTRA_PHOTOS_MAX, step1Schema, step2Schema, type Step1Input, type Step2Input } from "./rules";
import type { Step1Images, Step2Images } from "./service";

/** Every photo of step 2 at its largest, plus room for the text fields. */
const MAX_BODY_BYTES = (EXTRA_PHOTOS_MAX + 1) * MAX_IMAGE_BYTES + 1024 * 1024;

/** The multipart body of an onboarding step; anything else is a clear 400, never a crash. */
export async function readMultipart(request: Request): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) throw new AppError("VALIDATION_ERROR", "The request body must be multipart/form-data.");
  if (Number(request.headers.get("content-length")) > MAX_BODY_BYTES) throw new AppError("VALIDATION_ERROR", TOO_LARGE_MESSAGE);
  try {
    return await request.formData();
  } catch {
    throw new AppError("VALIDATION_ERROR", "The multipart body could not be read.");
  }
}

/** A text field; a file sent under a text field's name is left for the schema to refuse. */
const text = (form: FormData, name: string): unknown => form.get(name) ?? undefined;

/** The message is the first failing rule in the spec's check order; every field's message goes along. */
export function parseFields<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, parsed.error.issues[0]?.message);
  return parsed.data;
}

export async function step1FromForm(form: FormData): Promise<{ input: Step1Input; images: Step1Images }> {
  const input = parseFields(step1Schema, {
    occupation: text(form, "occupation"),
    locationName: text(form, "locationName"),
    locationPlaceId: text(form, "locationPlaceId"),
    interests: form.getAll("interests[]"),
  });
  return { input, images: { userImage: await uploadedImageBytes(form.get("userImage"), "userImage") } };
}

export async function step2FromForm(form: FormData): Promise<{ input: Step2Input; images: Step2Images }> {
  const input = parseFields(step2Schema, {
    couple_name: text(form, "couple_name"),
    coupleTypes: form.getAll("coupleTypes[]"),
    bio: text(form, "bio"),
  });
  const photos = await Promise.all(form.getAll("couplePhotos").map((value) => uploadedImageBytes(value, "couplePhotos")));
  return {
    input,
    images: {
      coupleProfileImage: await uploadedImageBytes(form.get("coupleProfileImage"), "coupleProfileImage"),
      couplePhotos: photos.filter((photo): photo is Buffer => photo !== null),
    },
  };
}
