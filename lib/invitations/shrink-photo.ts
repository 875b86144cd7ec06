import { PARTNER_PHOTO_MAX_SIDE, PARTNER_PHOTO_QUALITY } from "./rules";

/**
 * Browser only: a JPEG of the photo whose longer side is at most 400 px, at quality 0.9, so the
 * upload stays small. Rejects when the browser cannot decode the file.
 */
export async function shrinkPhoto(file: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, PARTNER_PHOTO_MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const context = canvas.getContext("2d");
  if (!context) throw new Error("No 2D canvas");
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("The photo could not be encoded"))), "image/jpeg", PARTNER_PHOTO_QUALITY),
  );
}
