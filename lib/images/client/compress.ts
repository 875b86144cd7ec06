import "client-only";
import type { CompressionReply } from "./compress.worker";
import { jpegName } from "./photo";

/** Compresses in a Web Worker: max 1 MB, max side 1920 px, JPEG starting at quality 0.85, renamed .jpg; the original file if anything fails. */
export function compressImage(file: File): Promise<File> {
  if (typeof Worker === "undefined") return Promise.resolve(file);
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL("./compress.worker.ts", import.meta.url));
    } catch {
      // Refused by the browser (e.g. a Content-Security-Policy): the server copes with the original.
      resolve(file);
      return;
    }
    const finish = (result: File) => {
      worker.terminate();
      resolve(result);
    };
    worker.onmessage = ({ data }: MessageEvent<CompressionReply>) =>
      finish(data.kind === "compressed" ? new File([data.blob], jpegName(file.name), { type: "image/jpeg" }) : file);
    worker.onerror = () => finish(file);
    worker.onmessageerror = () => finish(file);
    worker.postMessage(file);
  });
}
