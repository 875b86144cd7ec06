import "server-only";
import { AppError } from "@/lib/errors";
import { processSlots, serverBusy } from "@/lib/semaphore";
import { IMAGE_SLOTS } from "@/lib/thread-pool";
import {
  IMAGE_SIZES,
  INVALID_IMAGE_MESSAGE,
  JPEG_QUALITY,
  MAX_INPUT_PIXELS,
  tooLargeProblem,
  TOO_MANY_PIXELS_MESSAGE,
  type ImageKind,
} from "./rules";

export type ProcessedImage = { buffer: Buffer; width: number; height: number; bytes: number; contentType: "image/jpeg" };

const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp"]);

const invalid = () => new AppError("VALIDATION_ERROR", INVALID_IMAGE_MESSAGE);

/** How long an upload waits for a slot before it is refused with 503 (a phone photo takes a tenth of a second). */
export const IMAGE_SLOT_WAIT_MS = 10_000;

const inImageSlot = processSlots("app.imageSlots", IMAGE_SLOTS, IMAGE_SLOT_WAIT_MS);

/**
 * Magic bytes, checked before sharp sees the buffer: anything else (SVG, whose parser would
 * otherwise read the XML, HEIC, TIFF, GIF, text) is refused without being parsed at all.
 */
function hasAcceptedSignature(input: Uint8Array): boolean {
  const starts = (bytes: number[], at = 0) => bytes.every((b, i) => input[at + i] === b);
  const jpeg = starts([0xff, 0xd8, 0xff]);
  const png = starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const webp = starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8); // RIFF....WEBP
  return jpeg || png || webp;
}

/**
 * Turns an upload into the stored image: only JPEG, PNG or WebP (judged by content, never by
 * name or declared type), at most 10 MB and 40 MP; upright by its EXIF orientation, cropped to
 * the exact size of its kind, re-encoded as JPEG with no metadata at all (no EXIF, GPS, XMP, ICC).
 * Throws VALIDATION_ERROR for anything it refuses, SERVICE_UNAVAILABLE when no slot frees in time
 * or the encode runs out of its time.
 */
export async function processImage(input: Uint8Array, kind: ImageKind): Promise<ProcessedImage> {
  const tooLarge = tooLargeProblem(input.byteLength);
  if (tooLarge) throw new AppError("VALIDATION_ERROR", tooLarge);
  if (!hasAcceptedSignature(input)) throw invalid();
  return inImageSlot(() => decodeAndEncode(input, kind));
}

/** processImage's work on an upload of an accepted size and signature, in one of the slots. */
async function decodeAndEncode(input: Uint8Array, kind: ImageKind): Promise<ProcessedImage> {
  // Loaded by the first image, not with every route that may take one (~0.1 s of a cold start).
  const { default: sharp } = await import("sharp");

  // failOn "error": truncated or corrupt pixel data is refused; harmless encoder warnings are not.
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error", autoOrient: true } as const;
  const metadata = await sharp(input, options)
    .metadata()
    .catch((error: unknown) => {
      throw isPixelLimit(error) ? new AppError("VALIDATION_ERROR", TOO_MANY_PIXELS_MESSAGE) : invalid();
    });
  if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format)) throw invalid();
  // Only the first frame of an animated WebP is decoded; its size is what counts.
  if (metadata.width * (metadata.pageHeight ?? metadata.height) > MAX_INPUT_PIXELS) {
    throw new AppError("VALIDATION_ERROR", TOO_MANY_PIXELS_MESSAGE);
  }

  const { width, height } = IMAGE_SIZES[kind];
  try {
    const { data, info } = await sharp(input, options)
      .timeout({ seconds: 15 })
      .resize(width, height, { fit: "cover", position: "centre" })
      // JPEG has no transparency: transparent PNG/WebP areas become white, not black.
      .flatten({ background: "#ffffff" })
      // No withMetadata/keepMetadata: sharp then writes none, and converts to sRGB first.
      .jpeg({ quality: JPEG_QUALITY, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return { buffer: data, width: info.width, height: info.height, bytes: info.size, contentType: "image/jpeg" };
  } catch (error) {
    if (isPixelLimit(error)) throw new AppError("VALIDATION_ERROR", TOO_MANY_PIXELS_MESSAGE);
    // A file within the limits that ran out of time did so for the server's load, not its content.
    if (isTimeout(error)) throw serverBusy();
    // A header that parses but pixel data that does not: a corrupt or truncated file.
    throw invalid();
  }
}

const isPixelLimit = (error: unknown) => error instanceof Error && /pixel limit/i.test(error.message);
// vips kills a pipeline past sharp's timeout with "timeout: N% complete".
const isTimeout = (error: unknown) => error instanceof Error && /^timeout: /.test(error.message);
