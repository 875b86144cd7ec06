import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { assertStorageKey, contentTypeOfKey, isPrivateKey, isStorageKey } from "./keys";
import type { ImageStorage } from "./types";

/** URL prefix of the route that serves local files (app/api/images/[...key]/route.ts). */
export const LOCAL_IMAGE_URL_PREFIX = "/api/images/";

/** Missing files, and folders where a file was expected, read as "not there" rather than a crash. */
const ABSENT = new Set(["ENOENT", "ENOTDIR", "EISDIR"]);
const isAbsent = (error: unknown) => ABSENT.has((error as NodeJS.ErrnoException).code ?? "");

/** Images under one folder on this machine, e.g. `.data/uploads/avatar/<id>.jpg`. */
export function createLocalStorage(dir: string): ImageStorage {
  const root = path.resolve(dir);
  // Keys are validated first; the prefix check is a second lock on the same door.
  const fileOf = (key: string) => {
    assertStorageKey(key);
    const file = path.resolve(root, key);
    if (!file.startsWith(root + path.sep)) throw new Error("Storage key escapes the storage folder");
    return file;
  };

  return {
    async put(key, buffer) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Write then rename: a reader never sees half a file, and a crash leaves only a temp file.
      const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        await writeFile(temp, buffer, { mode: 0o644 });
        await rename(temp, file);
      } catch (error) {
        // A failed write (a full disk, an I/O error) leaves no part of itself: no key names a temp file, so nothing else removes it.
        await rm(temp, { force: true });
        throw error;
      }
      // The image route serves public keys only; a private one is read back by its feature.
      return { url: isPrivateKey(key) ? null : LOCAL_IMAGE_URL_PREFIX + key };
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
    async read(key) {
      if (!isStorageKey(key)) return null;
      try {
        return { body: await readFile(fileOf(key)), contentType: contentTypeOfKey(key)! };
      } catch (error) {
        if (isAbsent(error)) return null;
        throw error;
      }
    },
  };
}
