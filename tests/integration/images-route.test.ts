import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { NextRequest } from "next/server";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { GET } from "@/app/api/images/[...key]/route";
import { deleteImages, storeImage } from "@/lib/images/store";

const uploads = process.env.STORAGE_DIR!;

async function get(segments: string[] | undefined) {
  const url = new URL(`/api/images/${(segments ?? []).join("/")}`, "http://localhost:3000");
  const response = await GET(new NextRequest(url), { params: Promise.resolve({ key: segments }) });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

const photo = () =>
  sharp({ create: { width: 900, height: 700, channels: 3, background: "#884422" } })
    .jpeg()
    .toBuffer();

describe("GET /api/images/[...key]", () => {
  it("serves a stored image with its type, a year of immutable caching in browsers (an hour in shared caches) and nosniff", async () => {
    const stored = await storeImage(await photo(), "couple-photo");
    expect(stored).toMatchObject({ width: 600, height: 450 });
    expect(stored.url).toBe(`/api/images/${stored.key}`);

    const res = await get(stored.key.split("/"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, s-maxage=3600, immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Number(res.headers.get("content-length"))).toBe(stored.bytes);
    const meta = await sharp(res.body).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(["jpeg", 600, 450, undefined]);
  });

  it("answers 404 JSON once the image is deleted", async () => {
    const stored = await storeImage(await photo(), "avatar");
    await deleteImages(await getDb(), [stored.key]);
    const res = await get(stored.key.split("/"));
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body.toString())).toEqual({ error: { code: "NOT_FOUND", message: "Image not found." } });
  });

  it("answers 404 JSON, never a file or a 500, to traversal, odd and unknown keys", async () => {
    // A file next to the uploads folder, and a folder shaped like an image key inside it.
    await mkdir(uploads, { recursive: true });
    await writeFile(path.join(path.dirname(uploads), "secret.jpg"), "secret");
    await mkdir(path.join(uploads, "avatar", `${"b".repeat(32)}.jpg`), { recursive: true });

    const attempts: (string[] | undefined)[] = [
      ["..", "secret.jpg"],
      ["..", "..", "etc", "passwd"],
      ["avatar", "..", "..", "secret.jpg"],
      ["avatar%2F..%2F..%2Fsecret.jpg"],
      ["..%2Fsecret.jpg"],
      ["avatar/../../secret.jpg"],
      ["avatar", `${"a".repeat(32)}.jpg`],
      ["avatar", `${"b".repeat(32)}.jpg`],
      ["avatar", `${"a".repeat(32)}.jpg`, ""],
      ["avatar", "holiday.jpg"],
      ["avatar", `${"a".repeat(32)}.svg`],
      ["x".repeat(5000)],
      [],
      undefined,
    ];
    for (const segments of attempts) {
      const res = await get(segments);
      expect(res.status, JSON.stringify(segments)).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(JSON.parse(res.body.toString()).error.code).toBe("NOT_FOUND");
    }
  });
});
