import "server-only";
import { AppError } from "@/lib/errors";
import { parseWith } from "@/lib/http/errors";
import { uploadedImageBytes } from "@/lib/images/upload";
import { coupleUpdateSchema, type CoupleUpdateInput } from "@/lib/couples/schemas";
import type { CoupleUploads } from "@/lib/couples/service";
import { profileUpdateSchema, type ProfileUpdate } from "@/lib/profile/schemas";
import { NOTHING_TO_UPDATE_MESSAGE } from "@/lib/fields";
import { IMAGE_URL_MAX, IMAGE_URL_REFUSED_MESSAGE } from "@/lib/images/rules";
import { EXTRA_PHOTOS_MAX } from "@/lib/couples/rules";
import { photoField } from "@/lib/images/upload";

/*
 * The settings' two multipart forms (a photo goes along with the text): read into the very
 * inputs of PUT /api/v2/profile/update and PUT /api/v2/couples/{id}, so the same schemas and
 * domain functions judge them.
 */

/** A text field; a file sent under a text field's name is left for the schema to refuse. */
const text = (form: FormData, name: string): unknown => form.get(name) ?? undefined;

/** 'Your profile': names, occupation, interests, and optionally a new profile photo (`avatar`). */
export async function profileSettingsFromForm(form: FormData): Promise<{ update: ProfileUpdate; avatar: Uint8Array | null }> {
  const update = parseWith(
    profileUpdateSchema,
    Object.fromEntries(
      Object.entries({
        firstName: text(form, "firstName"),
        lastName: text(form, "lastName"),
        occupation: text(form, "occupation"),
        interests: form.has("interests[]") ? form.getAll("interests[]") : undefined,
      }).filter(([, value]) => value !== undefined),
    ),
    { firstIssue: true },
  );
  return { update, avatar: await uploadedImageBytes(form.get("avatar"), "avatar") };
}

/** The longest list of kept photos as text: one more URL than may be kept, each quoted with its comma. */
const KEPT_PHOTOS_TEXT_MAX = (EXTRA_PHOTOS_MAX + 1) * (IMAGE_URL_MAX + 3) + 2;

/** The kept extra photos, sent as one JSON list of their URLs (absent: unchanged); measured before it is parsed. */
function keptPhotos(form: FormData): unknown {
  const value = form.get("photos");
  if (value === null) return undefined;
  if (typeof value !== "string" || value.length > KEPT_PHOTOS_TEXT_MAX)
    throw new AppError("VALIDATION_ERROR", IMAGE_URL_REFUSED_MESSAGE, { fieldErrors: { photos: IMAGE_URL_REFUSED_MESSAGE } });
  try {
    return JSON.parse(value);
  } catch {
    throw new AppError("VALIDATION_ERROR", IMAGE_URL_REFUSED_MESSAGE, { fieldErrors: { photos: IMAGE_URL_REFUSED_MESSAGE } });
  }
}

/**
 * 'Couple profile': name, bio, adventure styles, the extra photos kept, a new main photo and new
 * extra photos (files, or the ids of photos uploaded ahead with `POST /api/uploads`).
 */
export async function coupleSettingsFromForm(form: FormData): Promise<{ update: CoupleUpdateInput; uploads: CoupleUploads }> {
  const fields = Object.fromEntries(
    Object.entries({
      coupleName: text(form, "coupleName"),
      bio: text(form, "bio"),
      coupleTypes: form.has("coupleTypes[]") ? form.getAll("coupleTypes[]") : undefined,
      photos: keptPhotos(form),
    }).filter(([, value]) => value !== undefined),
  );
  // The form sends only what was changed in it: new photos alone are a change too.
  const hasFields = Object.keys(fields).length > 0;
  const update: CoupleUpdateInput = hasFields ? parseWith(coupleUpdateSchema, fields, { firstIssue: true }) : {};
  const extra = (await Promise.all(form.getAll("newPhotos").map((value) => photoField(value, "newPhotos")))).filter(
    (photo) => photo !== null,
  );
  const main = await photoField(form.get("profileImage"), "profileImage");
  if (!hasFields && main === null && extra.length === 0) throw new AppError("VALIDATION_ERROR", NOTHING_TO_UPDATE_MESSAGE);
  return { update, uploads: { main, extra } };
}
