/**
 * Photo helpers of the browser (spec sections 5 and 9), shared by the picker, the gallery, the crop
 * dialog, the compression worker and partner B's photo. Their limits and messages are
 * lib/images/rules.ts.
 */
import "client-only";
import { ACCEPTED_IMAGE_TYPES, COMPRESSION, CROP_MIN_SIDE, INVALID_IMAGE_MESSAGE, tooLargeProblem } from "@/lib/images/rules";

/** A cropped photo kept as a data URL, so a draft in session storage can restore its preview after a reload. */
export type PickedPhoto = { dataUrl: string; name: string; size: number; width: number; height: number };

const ACCEPTED_EXTENSIONS = /\.(?:jpe?g|png|webp)$/i;

/** Some systems report no MIME type for a picked file; then its extension decides. */
function isImageType(file: Pick<File, "name" | "type">): boolean {
  if (file.type) return (ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type);
  return ACCEPTED_EXTENSIONS.test(file.name);
}

/** Why a picked file cannot be used, or null when it can. The server judges the content again. */
export function imageProblem(file: Pick<File, "name" | "type" | "size">): string | null {
  if (!isImageType(file)) return INVALID_IMAGE_MESSAGE;
  return tooLargeProblem(file.size);
}

/** "512 B", "48 KB", "1.4 MB". */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The original name with a .jpg extension, since every output is a JPEG. */
export function jpegName(name: string): string {
  return `${name.replace(/\.[^./\\]*$/, "")}.jpg`;
}

/** The crop output is named after the original, or cropped-{timestamp}.jpg when it has no name. */
export function croppedFileName(originalName: string, now: number): string {
  return originalName.trim() ? jpegName(originalName.trim()) : `cropped-${now}.jpg`;
}

/** Minimum crop box for an aspect ratio: neither side under 50 px (the library would let the shorter one shrink below). */
export function minCropSize(aspect: number): { minWidth: number; minHeight: number } {
  return { minWidth: CROP_MIN_SIDE * Math.max(1, aspect), minHeight: CROP_MIN_SIDE * Math.max(1, 1 / aspect) };
}

/** The size that fits within maxSide on both sides, keeping the aspect ratio; never enlarged. */
export function fitWithin(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The quality to try after an encoding of this many bytes, or null to keep it (small enough, or no lower step left). */
export function nextQuality(quality: number, bytes: number): number | null {
  if (bytes <= COMPRESSION.maxBytes) return null;
  // Rounded to hundredths so 0.85 - 0.1 is 0.75, not 0.7499999.
  const next = Math.round((quality - COMPRESSION.qualityStep) * 100) / 100;
  return next >= COMPRESSION.minQuality ? next : null;
}

/** A JPEG already within both limits is sent as it is: encoding it again would only lose detail. */
export function isAlreadyCompact(file: Pick<File, "type" | "size">, width: number, height: number): boolean {
  return file.type === "image/jpeg" && file.size <= COMPRESSION.maxBytes && Math.max(width, height) <= COMPRESSION.maxSide;
}

export function photoToFile(photo: PickedPhoto): File {
  const base64 = photo.dataUrl.slice(photo.dataUrl.indexOf(",") + 1);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return new File([bytes], photo.name, { type: "image/jpeg" });
}

/**
 * Browser only: draws onto a white canvas of the given size and encodes a JPEG. JPEG has no
 * transparency, so see-through parts of a PNG become white instead of black.
 */
export async function drawJpeg(
  size: { width: number; height: number },
  quality: number,
  draw: (context: CanvasRenderingContext2D) => void,
): Promise<Blob> {
  const canvas = document.createElement("canvas");
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("No 2D canvas");
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, size.width, size.height);
  context.imageSmoothingQuality = "high";
  draw(context);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
  if (!blob) throw new Error("The image could not be encoded");
  return blob;
}
