import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { writeWithImages } from "@/lib/images/lifecycle";
import type { ImageStorage } from "@/lib/storage";
import { keyOf, ownImage, signedIn } from "../support/couples";
import { failingDb } from "../support/failing-db";
import { jpeg } from "../support/onboarding";

/** Storage that keeps what it is given, served under this app's image route. */
function keepingStorage() {
  const files = new Set<string>();
  const deleted: string[] = [];
  const storage: ImageStorage = {
    read: async () => null,
    put: async (key) => {
      files.add(key);
      return { url: `/api/images/${key}` };
    },
    delete: async (key) => {
      files.delete(key);
      deleted.push(key);
    },
  };
  return { storage, files, deleted };
}

const avatarOf = async (userId: string) =>
  (await (await getDb()).select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, userId)))[0]!.avatarUrl;

describe("writeWithImages", () => {
  it("hands the stored uploads to the write and removes them again when the write fails", async () => {
    const { user } = await signedIn();
    const { storage, files } = keepingStorage();
    const write = writeWithImages(
      await failingDb(),
      user.id,
      { uploads: [{ bytes: await jpeg(), kind: "avatar" }], storage },
      async (tx, stored) => {
        expect(files.has(keyOf(stored[0]!.url))).toBe(true);
        await tx.update(users).set({ avatarUrl: stored[0]!.url }).where(eq(users.id, user.id));
        return { result: null, replaced: [] };
      },
    );
    await expect(write).rejects.toThrow();
    expect(files.size).toBe(0);
    expect(await avatarOf(user.id)).toBeNull();
  });

  it("once the write committed, removes the images it replaced that no row shows any more", async () => {
    const { user } = await signedIn();
    const old = ownImage("avatar");
    const db = await getDb();
    await db.update(users).set({ avatarUrl: old }).where(eq(users.id, user.id));
    const { storage, files, deleted } = keepingStorage();
    const url = await writeWithImages(db, user.id, { uploads: [{ bytes: await jpeg(), kind: "avatar" }], storage }, async (tx, stored) => {
      await tx.update(users).set({ avatarUrl: stored[0]!.url }).where(eq(users.id, user.id));
      // The new photo is named as well: it is shown now, so it stays.
      return { result: stored[0]!.url, replaced: [old, stored[0]!.url] };
    });
    expect(deleted).toEqual([keyOf(old)]);
    expect(files.has(keyOf(url))).toBe(true);
    expect(await avatarOf(user.id)).toBe(url);
  });
});
