import { fitWithin } from "@/lib/onboarding/client/photo";
import { PARTNER_PHOTO_MAX_SIDE, PARTNER_PHOTO_QUALITY } from "./rules";

/**
 * Browser only: a JPEG of the photo whose longer side is at most 400 px, at quality 0.9, so the
 * upload stays small. Rejects when the browser cannot decode the file.
 */
export async function shrinkPhoto(file: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  const size = fitWithin(bitmap.width, bitmap.height, PARTNER_PHOTO_MAX_SIDE);
  const canvas = document.createElement("canvas");
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("No 2D canvas");
  // JPEG has no transparency: see-through parts of a PNG become white instead of black.
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, size.width, size.height);
  context.drawImage(bitmap, 0, 0, size.width, size.height);
  bitmap.close();
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("The photo could not be encoded"))), "image/jpeg", PARTNER_PHOTO_QUALITY),
  );
}
