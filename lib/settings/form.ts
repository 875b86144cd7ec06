import "server-only";
import { AppError } from "@/lib/errors";
import { parseWith } from "@/lib/http/errors";
import { uploadedImageBytes } from "@/lib/images/upload";
import { coupleUpdateSchema, type CoupleUpdateInput } from "@/lib/couples/schemas";
import type { CouplePhotoChanges } from "@/lib/couples/service";
import { profileUpdateSchema, type ProfileUpdate } from "@/lib/profile/schemas";
import { NOTHING_TO_UPDATE_MESSAGE } from "@/lib/fields";
import { IMAGE_URL_MAX, IMAGE_URL_REFUSED_MESSAGE } from "@/lib/images/rules";
import { imageUrlsField } from "@/lib/images/schemas";
import { EXTRA_PHOTOS_MAX } from "@/lib/couples/rules";
import { photoField } from "@/lib/images/upload";

/*
 * The settings' two multipart forms (a photo goes along with the text): read into the very
 * inputs of PUT /api/v2/profile/update and PUT /api/v2/couples/{id}, so the same schemas and
 * domain functions judge them.
 */

/** A text field; a file sent under a text field's name is left for the schema to refuse. */
const text = (form: FormData, name: string): unknown => form.get(name) ?? undefined;

/** 'Your profile': names, occupation, interests, and optionally a new profile photo (`avatar`); a photo alone is a change too. */
export async function profileSettingsFromForm(form: FormData): Promise<{ update: ProfileUpdate; avatar: Uint8Array | null }> {
  const fields = Object.fromEntries(
    Object.entries({
      firstName: text(form, "firstName"),
      lastName: text(form, "lastName"),
      occupation: text(form, "occupation"),
      interests: form.has("interests[]") ? form.getAll("interests[]") : undefined,
    }).filter(([, value]) => value !== undefined),
  );
  const avatar = await uploadedImageBytes(form.get("avatar"), "avatar");
  // Without fields the schema's own refusal ('Nothing to update') stands unless a photo came.
  const update = avatar && Object.keys(fields).length === 0 ? {} : parseWith(profileUpdateSchema, fields, { firstIssue: true });
  return { update, avatar };
}

/** The longest list of removed photos as text: as many URLs as a page shows, each quoted with its comma. */
const REMOVED_PHOTOS_TEXT_MAX = EXTRA_PHOTOS_MAX * (IMAGE_URL_MAX + 3) + 2;

const refusedPhotos = () =>
  new AppError("VALIDATION_ERROR", IMAGE_URL_REFUSED_MESSAGE, { fieldErrors: { photos: IMAGE_URL_REFUSED_MESSAGE } });

/**
 * The extra photos removed, one JSON list of their URLs (absent: none); measured before it is
 * parsed. Removals, not the list kept: a photo the partner added since the page loaded is kept.
 */
function removedPhotos(form: FormData): string[] {
  const value = form.get("removedPhotos");
  if (value === null) return [];
  if (typeof value !== "string" || value.length > REMOVED_PHOTOS_TEXT_MAX) throw refusedPhotos();
  let list: unknown;
  try {
    list = JSON.parse(value);
  } catch {
    throw refusedPhotos();
  }
  const parsed = imageUrlsField.max(EXTRA_PHOTOS_MAX).safeParse(list);
  if (!parsed.success) throw refusedPhotos();
  return parsed.data;
}

/**
 * 'Couple profile': name, bio, adventure styles, and the photos' changes: a new main photo, new
 * extra photos (files, or the ids of photos uploaded ahead with `POST /api/uploads`), extra
 * photos removed.
 */
export async function coupleSettingsFromForm(form: FormData): Promise<{ update: CoupleUpdateInput; photos: CouplePhotoChanges }> {
  const fields = Object.fromEntries(
    Object.entries({
      coupleName: text(form, "coupleName"),
      bio: text(form, "bio"),
      coupleTypes: form.has("coupleTypes[]") ? form.getAll("coupleTypes[]") : undefined,
    }).filter(([, value]) => value !== undefined),
  );
  // The form sends only what was changed in it: photos alone are a change too.
  const hasFields = Object.keys(fields).length > 0;
  const update: CoupleUpdateInput = hasFields ? parseWith(coupleUpdateSchema, fields, { firstIssue: true }) : {};
  const removed = removedPhotos(form);
  const extra = (await Promise.all(form.getAll("newPhotos").map((value) => photoField(value, "newPhotos")))).filter(
    (photo) => photo !== null,
  );
  const main = await photoField(form.get("profileImage"), "profileImage");
  if (!hasFields && main === null && extra.length === 0 && removed.length === 0)
    throw new AppError("VALIDATION_ERROR", NOTHING_TO_UPDATE_MESSAGE);
  return { update, photos: { main, extra, removed } };
}
