import "server-only";
import type { z } from "zod";
import { AppError } from "@/lib/errors";
import { MAX_REQUEST_BYTES, readBoundedBody } from "@/lib/http/body";
import { fieldErrors, refuseUnsafeText } from "@/lib/http/errors";
import { photoField, uploadedImageBytes, type PhotoInput } from "@/lib/images/upload";
import { INVALID_IMAGE_MESSAGE, MAX_UPLOAD_BYTES } from "@/lib/images/rules";
import type { step1Schema, step2Schema } from "./schemas";

/**
 * A multipart body (an onboarding step, a settings form, an uploaded photo), at most the
 * platform's 4.5 MB: a form with several photos names the ones uploaded ahead (`POST /api/uploads`)
 * instead of carrying them. Anything else is a clear 400, never a crash.
 */
export async function readMultipart(request: Request, maxBytes = MAX_REQUEST_BYTES): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) throw new AppError("VALIDATION_ERROR", "The request body must be multipart/form-data.");
  const bytes = await readBoundedBody(request, maxBytes);
  try {
    return await new Response(bytes, { headers: { "content-type": type } }).formData();
  } catch {
    throw new AppError("VALIDATION_ERROR", "The multipart body could not be read.");
  }
}

/** A text field; a file sent under a text field's name is left for the schema to refuse. */
const text = (form: FormData, name: string): unknown => form.get(name) ?? undefined;

/**
 * A step's text fields parsed together with the checks the schema cannot make (a required photo
 * needs the saved profile): the message is the first problem in `order`, the spec's check order,
 * and every field's message goes along.
 */
export function parseStep<S extends z.ZodType>(
  schema: S,
  value: unknown,
  order: readonly string[],
  other: Record<string, string | null>,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) refuseUnsafeText(value);
  const otherProblems = Object.entries(other).filter((entry): entry is [string, string] => entry[1] !== null);
  if (parsed.success && otherProblems.length === 0) return parsed.data;
  const problems = { ...(parsed.success ? {} : fieldErrors(parsed.error)), ...Object.fromEntries(otherProblems) };
  const rank = (key: string) => {
    const index = order.indexOf(key.split(".")[0]!);
    return index < 0 ? order.length : index;
  };
  const [first] = Object.keys(problems).sort((a, b) => rank(a) - rank(b));
  throw new AppError("VALIDATION_ERROR", problems[first!]!, { fieldErrors: problems });
}

/** The text fields as sent; the service parses them once it knows whether a photo is saved. */
export type Step1Fields = z.input<typeof step1Schema>;
export type Step2Fields = z.input<typeof step2Schema>;
/** The photos as sent; a missing one is null. */
export type Step1Images = { userImage?: Uint8Array | null };
/** Each a file sent with the form, or the id of a photo uploaded ahead of it. */
export type Step2Images = { coupleProfileImage?: PhotoInput | null; couplePhotos?: readonly PhotoInput[] };

export async function step1FromForm(form: FormData): Promise<{ fields: Step1Fields; images: Step1Images }> {
  return {
    fields: {
      occupation: text(form, "occupation"),
      locationName: text(form, "locationName"),
      locationPlaceId: text(form, "locationPlaceId"),
      interests: form.getAll("interests[]"),
    },
    images: { userImage: await uploadedImageBytes(form.get("userImage"), "userImage") },
  };
}

export async function step2FromForm(form: FormData): Promise<{ fields: Step2Fields; images: Step2Images }> {
  const photos = await Promise.all(form.getAll("couplePhotos").map((value) => photoField(value, "couplePhotos")));
  return {
    fields: {
      couple_name: text(form, "couple_name"),
      coupleTypes: form.getAll("coupleTypes[]"),
      bio: text(form, "bio"),
    },
    images: {
      coupleProfileImage: await photoField(form.get("coupleProfileImage"), "coupleProfileImage"),
      couplePhotos: photos.filter((photo) => photo !== null),
    },
  };
}

/** A request carrying one photo and its multipart framing. */
const ONE_PHOTO_BODY_BYTES = MAX_UPLOAD_BYTES + 64 * 1024;

/** The input of a one-photo upload route (multipart field `photo`, required): the forum's and the messages' photos. */
export async function onePhotoUpload(request: Request): Promise<Buffer> {
  const bytes = await uploadedImageBytes((await readMultipart(request, ONE_PHOTO_BODY_BYTES)).get("photo"), "photo");
  if (!bytes) throw new AppError("VALIDATION_ERROR", INVALID_IMAGE_MESSAGE, { fieldErrors: { photo: INVALID_IMAGE_MESSAGE } });
  return bytes;
}
