/**
 * Compression off the main thread (spec section 9), so a 12-megapixel photo does not freeze the
 * form: decode, shrink to 1920 px a side, encode JPEG and step the quality down until <= 1 MB.
 */
import "client-only";
import { COMPRESSION } from "@/lib/images/rules";
import { fitWithin, isAlreadyCompact, nextQuality } from "./photo";

export type CompressionReply = { kind: "compressed"; blob: Blob } | { kind: "unchanged" } | { kind: "failed" };

// The project compiles with the DOM library only; this is the part of the worker scope used here.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<File>) => void) | null;
  postMessage(reply: CompressionReply): void;
};

async function compress(file: File): Promise<CompressionReply> {
  const bitmap = await createImageBitmap(file);
  try {
    if (isAlreadyCompact(file, bitmap.width, bitmap.height)) return { kind: "unchanged" };
    const { width, height } = fitWithin(bitmap.width, bitmap.height, COMPRESSION.maxSide);
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext("2d");
    if (!context) return { kind: "failed" };
    // JPEG has no transparency: see-through parts of a PNG become white instead of black.
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, width, height);
    context.drawImage(bitmap, 0, 0, width, height);
    const encode = (quality: number) => canvas.convertToBlob({ type: "image/jpeg", quality });
    let quality: number = COMPRESSION.initialQuality;
    let blob = await encode(quality);
    for (let next = nextQuality(quality, blob.size); next !== null; next = nextQuality(quality, blob.size)) {
      quality = next;
      blob = await encode(quality);
    }
    return { kind: "compressed", blob };
  } finally {
    bitmap.close();
  }
}

scope.onmessage = (event) => {
  compress(event.data).then(
    (reply) => scope.postMessage(reply),
    () => scope.postMessage({ kind: "failed" }),
  );
};
