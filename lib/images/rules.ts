/**
 * Image sizes, limits and messages: pure values, so the browser (crop dialog, file picker)
 * and the server share them.
 */

/** Output sizes by use (spec section 9): round profile and main couple photos, 4:3 extra photos. */
export const IMAGE_SIZES = {
  avatar: { width: 400, height: 400 },
  "couple-main": { width: 400, height: 400 },
  "couple-photo": { width: 600, height: 450 },
} as const;
export type ImageKind = keyof typeof IMAGE_SIZES;

/** The upload hint says up to 10 MB. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** 40 MP covers any phone camera; beyond it a small file can decode to gigabytes (a decompression bomb). */
export const MAX_INPUT_PIXELS = 40_000_000;
export const JPEG_QUALITY = 85;

export const INVALID_IMAGE_MESSAGE = "Please select a valid image file (JPEG, PNG, or WebP)";
export const TOO_LARGE_MESSAGE = "Images must be 10 MB or smaller.";
/** An image URL sent as JSON that is not one the caller's own profile or couple shows now. */
export const IMAGE_URL_REFUSED_MESSAGE = "Please upload the photo here: links to images elsewhere are not accepted";
export const TOO_MANY_PIXELS_MESSAGE = "Images must be 40 megapixels or smaller.";

/** MIME types the file picker offers; the server ignores declared types and judges by content. */
export const ACCEPTED_IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
