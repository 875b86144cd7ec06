import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { INVALID_IMAGE_MESSAGE, MAX_IMAGE_BYTES, TOO_LARGE_MESSAGE, TOO_MANY_PIXELS_MESSAGE, type ImageKind } from "@/lib/images/rules";
import { processImage } from "@/lib/images/process";
import { pngHeaderOnly } from "../fixtures/images";

const solid = (width: number, height: number, background: string, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background } });

/** A 300x200 photo, left half red and right half blue, that says "rotate 90° clockwise to view". */
async function sidewaysPhoneJpeg(): Promise<Buffer> {
  const right = await solid(150, 200, "#0000ff").png().toBuffer();
  return solid(300, 200, "#ff0000")
    .composite([{ input: right, left: 150, top: 0 }])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Make: "PhoneCo" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "38/1 43/1 20/1" } })
    .toBuffer();
}

async function pixel(image: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [...data.subarray(at, at + 3)];
}

const isRed = ([r, g, b]: number[]) => r! > 200 && g! < 60 && b! < 60;
const isBlue = ([r, g, b]: number[]) => b! > 200 && r! < 60 && g! < 60;

async function refusal(input: Uint8Array, kind: ImageKind = "avatar") {
  const error = await processImage(input, kind).then(
    () => null,
    (e: unknown) => e as { code?: string; message?: string },
  );
  expect(error, "expected the image to be refused").not.toBeNull();
  return { code: error!.code, message: error!.message };
}

describe("processImage", () => {
  it("turns a sideways phone JPEG upright, crops it to 400x400 and strips EXIF and GPS", async () => {
    const input = await sidewaysPhoneJpeg();
    const before = await sharp(input).metadata();
    expect(before.orientation).toBe(6);
    // The GPS IFD pointer (tag 0x8825, little-endian) is in the input's EXIF.
    expect(before.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true);

    const out = await processImage(input, "avatar");
    expect(out).toMatchObject({ width: 400, height: 400, contentType: "image/jpeg", bytes: out.buffer.byteLength });
    const after = await sharp(out.buffer).metadata();
    expect(after).toMatchObject({ format: "jpeg", width: 400, height: 400 });
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.iptc).toBeUndefined();
    expect(after.icc).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect(out.buffer.includes(Buffer.from("PhoneCo"))).toBe(false);
    // Upright: rotated clockwise, the red left half is now on top and the blue half at the bottom.
    expect(isRed(await pixel(out.buffer, 200, 20))).toBe(true);
    expect(isBlue(await pixel(out.buffer, 200, 380))).toBe(true);
  });

  it.each([
    ["avatar", 400, 400],
    ["couple-main", 400, 400],
    ["couple-photo", 600, 450],
  ] as const)("gives a %s exactly %ix%i, whatever the input's shape", async (kind, width, height) => {
    for (const [w, h] of [
      [1200, 300],
      [300, 1200],
      [50, 40],
    ]) {
      const out = await processImage(await solid(w!, h!, "#336699").jpeg().toBuffer(), kind);
      expect([out.width, out.height]).toEqual([width, height]);
      const meta = await sharp(out.buffer).metadata();
      expect([meta.width, meta.height]).toEqual([width, height]);
    }
  });

  it("accepts a transparent PNG and flattens it onto white", async () => {
    const out = await processImage(await solid(500, 500, "#00000000", 4).png().toBuffer(), "couple-photo");
    expect([out.width, out.height, out.contentType]).toEqual([600, 450, "image/jpeg"]);
    const [r, g, b] = await pixel(out.buffer, 10, 10);
    expect(Math.min(r!, g!, b!)).toBeGreaterThan(245);
  });

  it("accepts a WebP", async () => {
    const out = await processImage(await solid(640, 480, "#228833").webp().toBuffer(), "couple-main");
    expect((await sharp(out.buffer).metadata()).format).toBe("jpeg");
    expect([out.width, out.height]).toEqual([400, 400]);
  });

  it("refuses a GIF, an SVG, a TIFF, a text file named .jpg and an empty file with the spec's message", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    const inputs = [
      await solid(20, 20, "#ff0000").gif().toBuffer(),
      svg,
      await solid(20, 20, "#ff0000").tiff().toBuffer(),
      Buffer.from("just some text pretending to be photo.jpg\n"),
      Buffer.alloc(0),
    ];
    for (const input of inputs) {
      expect(await refusal(input)).toEqual({ code: "VALIDATION_ERROR", message: INVALID_IMAGE_MESSAGE });
    }
  });

  it("refuses a JPEG signature followed by garbage, and a truncated JPEG", async () => {
    const garbage = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("not really a jpeg".repeat(10))]);
    const noisy = await sharp({
      create: { width: 800, height: 600, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } },
    })
      .jpeg()
      .toBuffer();
    for (const input of [garbage, noisy.subarray(0, noisy.length / 2)]) {
      expect(await refusal(input)).toEqual({ code: "VALIDATION_ERROR", message: INVALID_IMAGE_MESSAGE });
    }
  });

  it("refuses a 20000x20000 PNG bomb quickly, from its header, without decoding it", async () => {
    const started = performance.now();
    expect(await refusal(pngHeaderOnly(20_000, 20_000))).toEqual({ code: "VALIDATION_ERROR", message: TOO_MANY_PIXELS_MESSAGE });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("refuses a real image just over 40 megapixels", async () => {
    const big = await solid(8000, 5001, "#000000").png({ compressionLevel: 9 }).toBuffer();
    expect(await refusal(big)).toEqual({ code: "VALIDATION_ERROR", message: TOO_MANY_PIXELS_MESSAGE });
  });

  it("refuses anything over 10 MB before looking at it", async () => {
    const huge = Buffer.alloc(MAX_IMAGE_BYTES + 1);
    huge.set([0xff, 0xd8, 0xff]);
    expect(await refusal(huge)).toEqual({ code: "VALIDATION_ERROR", message: TOO_LARGE_MESSAGE });
  });
});
