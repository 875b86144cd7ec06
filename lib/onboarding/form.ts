import "server-only";
import type { z } from "zod";
import { AppError } from "@/lib/errors";
import { readBoundedBody } from "@/lib/http/body";
import { fieldErrors, refuseUnsafeText } from "@/lib/http/errors";
import { EXTRA_PHOTOS_MAX } from "@/lib/couples/rules";
import { MAX_IMAGE_BYTES } from "@/lib/images/rules";
import { uploadedImageBytes } from "@/lib/images/upload";
import type { step1Schema, step2Schema } from "./schemas";

/** Every photo of step 2 at its largest, plus room for the text fields. */
const MAX_BODY_BYTES = (EXTRA_PHOTOS_MAX + 1) * MAX_IMAGE_BYTES + 1024 * 1024;

/** The multipart body of an onboarding step (or a forum photo, with its own bound); anything else is a clear 400, never a crash. */
export async function readMultipart(request: Request, maxBytes = MAX_BODY_BYTES): Promise<FormData> {
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
export type Step2Images = { coupleProfileImage?: Uint8Array | null; couplePhotos?: readonly Uint8Array[] };

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
  const photos = await Promise.all(form.getAll("couplePhotos").map((value) => uploadedImageBytes(value, "couplePhotos")));
  return {
    fields: {
      couple_name: text(form, "couple_name"),
      coupleTypes: form.getAll("coupleTypes[]"),
      bio: text(form, "bio"),
    },
    images: {
      coupleProfileImage: await uploadedImageBytes(form.get("coupleProfileImage"), "coupleProfileImage"),
      couplePhotos: photos.filter((photo): photo is Buffer => photo !== null),
    },
  };
}
