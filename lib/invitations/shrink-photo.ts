import "client-only";
import { PARTNER_PHOTO_MAX_SIDE, PARTNER_PHOTO_QUALITY } from "@/lib/images/rules";
import { drawJpeg, fitWithin } from "@/lib/images/client/photo";

/**
 * Browser only: a JPEG of the photo whose longer side is at most 400 px, at quality 0.9, so the
 * upload stays small. Rejects when the browser cannot decode the file.
 */
export async function shrinkPhoto(file: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  const size = fitWithin(bitmap.width, bitmap.height, PARTNER_PHOTO_MAX_SIDE);
  try {
    return await drawJpeg(size, PARTNER_PHOTO_QUALITY, (context) => context.drawImage(bitmap, 0, 0, size.width, size.height));
  } finally {
    bitmap.close();
  }
}
