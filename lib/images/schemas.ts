/** An image named by its URL in a JSON call: pure and browser-safe. */
import { z } from "zod";
import { trimmedString, oneLine } from "@/lib/fields";
import { IMAGE_URL_MAX, IMAGE_URL_REFUSED_MESSAGE, STAGED_PHOTO_KINDS } from "./rules";

/**
 * An image URL as text. Which images the caller may name is the server's check
 * (`assertOwnImageUrls`): only images the caller's own rows show now are accepted.
 */
export const imageUrlField = oneLine(
  trimmedString(IMAGE_URL_MAX, IMAGE_URL_REFUSED_MESSAGE).min(1, IMAGE_URL_REFUSED_MESSAGE),
  IMAGE_URL_REFUSED_MESSAGE,
);

/** Several image URLs (a couple's extra photos). */
export const imageUrlsField = z.array(imageUrlField, { error: IMAGE_URL_REFUSED_MESSAGE });

/** `GET /api/images/{...key}`: the path's segments as one storage key; no segments are "", which no image has. */
export const imageKeyParamsSchema = z.object({ key: z.array(z.string()).catch([]) }).transform(({ key }) => key.join("/"));

/** `POST /api/uploads`: the kind a couple photo is uploaded as ahead of its save. */
export const stagedPhotoKindSchema = z.object({ kind: z.enum(STAGED_PHOTO_KINDS) });
