import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { chooseStorage, contentTypeOfKey, isStorageKey, newStorageKey } from "@/lib/storage";
import { createLocalStorage } from "@/lib/storage/local";

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "uploads-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe("storage keys", () => {
  it("are random, in the kind's folder, with a fixed extension, and never repeat", () => {
    const keys = new Set(Array.from({ length: 200 }, () => newStorageKey("avatar")));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^avatar\/[0-9a-f]{32}\.jpg$/);
      expect(isStorageKey(key)).toBe(true);
      expect(contentTypeOfKey(key)).toBe("image/jpeg");
    }
  });

  it.each([
    "../avatar/0123456789abcdef0123456789abcdef.jpg",
    "avatar/../../etc/passwd",
    "avatar/0123456789abcdef0123456789abcdef.jpg/..",
    "/avatar/0123456789abcdef0123456789abcdef.jpg",
    "avatar\\0123456789abcdef0123456789abcdef.jpg",
    "avatar/0123456789ABCDEF0123456789ABCDEF.jpg",
    "avatar/0123456789abcdef0123456789abcdef.svg",
    "avatar/0123456789abcdef0123456789abcdef.jpg\u0000.png",
    "avatar/my holiday photo.jpg",
    "a/b/0123456789abcdef0123456789abcdef.jpg",
    "",
  ])("refuses %j", (key) => {
    expect(isStorageKey(key)).toBe(false);
    expect(contentTypeOfKey(key)).toBeNull();
  });

  it("refuses a folder name that could leave the storage folder", () => {
    expect(() => newStorageKey("../x")).toThrow();
    expect(() => newStorageKey("")).toThrow();
  });
});

describe("local disk storage", () => {
  it("stores, reads back and deletes an object under its key, leaving no temp file", async () => {
    const dir = await tempDir();
    const storage = createLocalStorage(dir);
    const key = newStorageKey("couple-photo");
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 1, 2, 3]);

    expect(await storage.put(key, bytes, "image/jpeg")).toEqual({ url: `/api/images/${key}` });
    expect(await readFile(path.join(dir, key))).toEqual(bytes);
    expect(await readdir(path.join(dir, "couple-photo"))).toEqual([key.split("/")[1]]);
    expect(await storage.read(key)).toEqual({ body: bytes, contentType: "image/jpeg" });

    await storage.delete(key);
    expect(await storage.read(key)).toBeNull();
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it("leaves no temp file behind when a write fails", async () => {
    const dir = await tempDir();
    const storage = createLocalStorage(dir);
    const key = newStorageKey("avatar");
    // Something in the way of the final rename (as a full disk or an I/O error stops the write itself).
    await mkdir(path.join(dir, key, "in-the-way"), { recursive: true });
    await expect(storage.put(key, Buffer.from([0xff, 0xd8, 0xff, 1]), "image/jpeg")).rejects.toThrow();
    expect(await readdir(path.join(dir, "avatar"))).toEqual([key.split("/")[1]]);
  });

  it("never reads or writes outside its folder", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "secret.jpg"), "secret");
    const storage = createLocalStorage(path.join(dir, "uploads"));
    expect(await storage.read("../secret.jpg")).toBeNull();
    await expect(storage.put("../secret.jpg", Buffer.from("x"), "image/jpeg")).rejects.toThrow(/Invalid storage key/);
    await expect(storage.delete("../secret.jpg")).rejects.toThrow(/Invalid storage key/);
    expect(await readFile(path.join(dir, "secret.jpg"), "utf8")).toBe("secret");
  });
});

describe("chooseStorage", () => {
  const base = {
    STORAGE_DIR: ".data/uploads",
    S3_BUCKET: undefined,
    S3_ENDPOINT: undefined,
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: undefined,
    S3_SECRET_ACCESS_KEY: undefined,
    S3_PUBLIC_URL: undefined,
  };

  it("uses local disk unless S3_BUCKET is set", () => {
    expect(chooseStorage(base)).toEqual({ kind: "local", dir: ".data/uploads" });
  });

  it("uses S3 with every setting when S3_BUCKET is set", () => {
    const choice = chooseStorage({
      ...base,
      S3_BUCKET: "photos",
      S3_PRIVATE_BUCKET: "photos-private",
      S3_ENDPOINT: "https://r2.example.com",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_PUBLIC_URL: "https://img.example.com",
    });
    expect(choice).toEqual({
      kind: "s3",
      settings: {
        bucket: "photos",
        privateBucket: "photos-private",
        region: "us-east-1",
        endpoint: "https://r2.example.com",
        accessKeyId: "id",
        secretAccessKey: "secret",
        publicUrl: "https://img.example.com",
      },
    });
  });

  it("refuses a half-configured S3 instead of quietly writing to local disk", () => {
    expect(() => chooseStorage({ ...base, S3_BUCKET: "photos", S3_ACCESS_KEY_ID: "id" })).toThrow(
      "S3_BUCKET is set, so S3_PRIVATE_BUCKET, S3_SECRET_ACCESS_KEY, S3_PUBLIC_URL must be set too.",
    );
    // Private images never share the public bucket: anyone with a photo's key would read it there.
    const whole = { S3_ACCESS_KEY_ID: "id", S3_SECRET_ACCESS_KEY: "secret", S3_PUBLIC_URL: "https://img.example.com" };
    expect(() => chooseStorage({ ...base, ...whole, S3_BUCKET: "photos", S3_PRIVATE_BUCKET: "photos" })).toThrow(
      "S3_BUCKET is set, so S3_PRIVATE_BUCKET must be set too.",
    );
  });
});

describe("S3 storage", () => {
  it("refuses an invalid key before any request is made", async () => {
    const { createS3Storage } = await import("@/lib/storage/s3");
    const storage = createS3Storage({
      bucket: "photos",
      privateBucket: "photos",
      region: "us-east-1",
      endpoint: "http://127.0.0.1:9",
      accessKeyId: "id",
      secretAccessKey: "secret",
      publicUrl: "https://img.example.com/",
    });
    await expect(storage.put("../x.jpg", Buffer.from("x"), "image/jpeg")).rejects.toThrow(/Invalid storage key/);
    await expect(storage.delete("avatar/../../x.jpg")).rejects.toThrow(/Invalid storage key/);
  });

  it("gives up on a storage service that accepts the connection and never answers, instead of hanging the request", async () => {
    const { createS3Storage } = await import("@/lib/storage/s3");
    // Accepts every connection, reads what is sent, answers nothing: a stalled S3 endpoint.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on("data", () => {});
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const storage = createS3Storage({
        bucket: "photos",
        privateBucket: "private-photos",
        region: "us-east-1",
        endpoint: `http://127.0.0.1:${port}`,
        accessKeyId: "id",
        secretAccessKey: "secret",
        publicUrl: "https://img.example.com/",
      });
      const key = newStorageKey("avatar");
      const started = Date.now();
      const outcomes = await Promise.allSettled([storage.read(key), storage.put(key, Buffer.from("x"), "image/jpeg"), storage.delete(key)]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected", "rejected"]);
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 30_000);
});
