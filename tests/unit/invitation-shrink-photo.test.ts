import { afterEach, describe, expect, it, vi } from "vitest";
import { shrinkPhoto } from "@/lib/invitations/shrink-photo";

/** A canvas that records what is painted on it, in order. */
function fakeCanvas() {
  const calls: string[] = [];
  const context = {
    fillStyle: "",
    fillRect: (...args: number[]) => calls.push(`fillRect ${context.fillStyle} ${args.join(",")}`),
    drawImage: (_image: unknown, ...args: number[]) => calls.push(`drawImage ${args.join(",")}`),
  };
  const canvas = {
    width: 0,
    height: 0,
    getContext: () => context,
    toBlob: (done: (blob: Blob | null) => void, type: string, quality: number) => {
      calls.push(`toBlob ${type} ${quality}`);
      done(new Blob(["jpeg"], { type }));
    },
  };
  return { canvas, calls };
}

afterEach(() => vi.unstubAllGlobals());

describe("shrinkPhoto", () => {
  it("paints white under the photo (a transparent PNG must not turn black) at 400 px on the longer side, JPEG quality 0.9", async () => {
    const { canvas, calls } = fakeCanvas();
    vi.stubGlobal("document", { createElement: () => canvas });
    vi.stubGlobal("createImageBitmap", async () => ({ width: 1000, height: 500, close: () => undefined }));
    const blob = await shrinkPhoto(new Blob(["png"], { type: "image/png" }));
    expect(blob.type).toBe("image/jpeg");
    expect([canvas.width, canvas.height]).toEqual([400, 200]);
    expect(calls).toEqual(["fillRect #ffffff 0,0,400,200", "drawImage 0,0,400,200", "toBlob image/jpeg 0.9"]);
  });
});
