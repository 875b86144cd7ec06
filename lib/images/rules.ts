/**
 * Image sizes, limits and messages: pure values, so the browser (file picker, crop dialog,
 * compression, partner B's photo) and the server share them. The one place for image constants.
 */

/** Output sizes by use (spec section 9): round profile and main couple photos, 4:3 extra photos. */
export const IMAGE_SIZES = {
  avatar: { width: 400, height: 400 },
  "couple-main": { width: 400, height: 400 },
  "couple-photo": { width: 600, height: 450 },
  /** Forum post photos: 4:3 like the couple's photos, large enough to open full width. */
  "forum-photo": { width: 1200, height: 900 },
  /** A message's photo: the forum's size, through the same pipeline. */
  "message-photo": { width: 1200, height: 900 },
  /** A partner's posed selfie for photo verification: portrait, large enough to see the pose; private. */
  "verification-selfie": { width: 600, height: 800 },
} as const;
export type ImageKind = keyof typeof IMAGE_SIZES;

/** A picked file, before the browser crops and compresses it: the upload hint says up to 10 MB. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/**
 * A photo as it arrives on the server: one request carries at most one, with its form framing,
 * under the platform's 4.5 MB body limit (lib/http/body MAX_REQUEST_BYTES). Photos compressed in
 * the browser are 1 MB at most.
 */
export const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;
/** 40 MP covers any phone camera; beyond it a small file can decode to gigabytes (a decompression bomb). */
export const MAX_INPUT_PIXELS = 40_000_000;
export const JPEG_QUALITY = 85;
/** Long enough for any URL this app's storage hands out. */
export const IMAGE_URL_MAX = 2048;

export const INVALID_IMAGE_MESSAGE = "Please select a valid image file (JPEG, PNG, or WebP)";
export const TOO_LARGE_MESSAGE = "Images must be 10 MB or smaller.";
export const UPLOAD_TOO_LARGE_MESSAGE = "Each photo must be 4 MB or smaller when uploaded.";
/** An image URL sent as JSON that is not one the caller's own profile or couple shows now. */
export const IMAGE_URL_REFUSED_MESSAGE = "Please upload the photo here: links to images elsewhere are not accepted";
export const TOO_MANY_PIXELS_MESSAGE = "Images must be 40 megapixels or smaller.";

/** The byte limit of a picked file, checked in the browser before it is cropped and compressed. */
export const tooLargeProblem = (bytes: number): string | null => (bytes > MAX_IMAGE_BYTES ? TOO_LARGE_MESSAGE : null);
/** The byte limit of an uploaded photo, on the server on arrival. */
export const uploadTooLargeProblem = (bytes: number): string | null => (bytes > MAX_UPLOAD_BYTES ? UPLOAD_TOO_LARGE_MESSAGE : null);

/** The kinds a photo may be uploaded as ahead of its save (`POST /api/uploads`): the couple's photos. */
export const STAGED_PHOTO_KINDS = ["couple-main", "couple-photo"] as const satisfies readonly ImageKind[];
export type StagedPhotoKind = (typeof STAGED_PHOTO_KINDS)[number];
/** An uploaded photo waits this long for the save that uses it, then it is removed. */
export const STAGED_PHOTO_HOURS = 24;
export const STAGED_PHOTO_EXPIRED_MESSAGE = "This photo's upload has expired. Please add the photo again.";
/**
 * Why a write cannot use a photo it names: one of this app's uploads no longer waiting for it
 * (swept after STAGED_PHOTO_HOURS, as a draft kept a day may find) has expired and is added again;
 * anything else is a link to elsewhere.
 */
export const unusablePhotoMessage = (ourUpload: boolean): string => (ourUpload ? STAGED_PHOTO_EXPIRED_MESSAGE : IMAGE_URL_REFUSED_MESSAGE);

/** MIME types the file picker offers; the server ignores declared types and judges by content. */
export const ACCEPTED_IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
/** The value of a file input's accept attribute. */
export const ACCEPT_ATTRIBUTE = ACCEPTED_IMAGE_TYPES.join(",");

/* The photo pickers and the crop dialog (spec sections 5 and 9). */
export const PHOTO_HINT = "JPEG, PNG or WebP, up to 10 MB";
export const INVALID_IMAGES_MESSAGE = "Some files are not valid image files. Please use JPEG, PNG, or WebP.";
export const CROP_FAILED_MESSAGE = "Error cropping image. Please try again.";
export const NO_CROP_AREA_MESSAGE = "Please select a crop area first";
export const CROP_JPEG_QUALITY = 0.95;
/** Neither side of a crop box under this many pixels. */
export const CROP_MIN_SIDE = 50;

/** Compression before upload (spec section 9): at most 1 MB and 1920 px a side, JPEG from quality 0.85 down. */
export const COMPRESSION = { maxBytes: 1024 * 1024, maxSide: 1920, initialQuality: 0.85, qualityStep: 0.1, minQuality: 0.45 } as const;

/** Partner B's optional photo is shrunk in the browser before upload (spec section 9). */
export const PARTNER_PHOTO_MAX_SIDE = 400;
export const PARTNER_PHOTO_QUALITY = 0.9;
