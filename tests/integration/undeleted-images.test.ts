import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { undeletedImages, users } from "@/db/schema";
import { deleteAccount } from "@/lib/account/deletion";
import { deleteImages } from "@/lib/images/store";
import { retryUndeletedImages } from "@/lib/images/undeleted";
import { newStorageKey, type ImageStorage } from "@/lib/storage";
import { PASSWORD } from "../support/api";
import { keyOf, ownImage, signedIn } from "../support/couples";

/** Storage whose removals fail for the keys in `refused` (a storage outage for those files); it records the others. */
function storageRefusing(refused: Set<string>) {
  const deleted: string[] = [];
  const storage: ImageStorage = {
    put: async () => ({ url: "" }),
    read: async () => null,
    delete: async (key) => {
      if (refused.has(key)) throw new Error("storage is down");
      deleted.push(key);
    },
  };
  return { storage, deleted };
}

const recorded = async (keys: string[]) =>
  (await (await getDb()).select().from(undeletedImages).where(inArray(undeletedImages.key, keys))).map(({ key, tries, retryAt }) => ({
    key,
    tries,
    retryAt: retryAt.getTime(),
  }));

const minutes = (from: Date, count: number) => new Date(from.getTime() + count * 60_000);

describe("files storage failed to remove", () => {
  it("are recorded and tried again, a minute later and then twice as long after each failure, until storage removes them", async () => {
    const db = await getDb();
    const [failing, removed] = [newStorageKey("avatar", "jpg"), newStorageKey("avatar", "jpg")];
    const outage = storageRefusing(new Set([failing]));
    const before = Date.now();
    await deleteImages(db, [failing, removed], outage.storage);
    expect(outage.deleted).toEqual([removed]);
    const [first] = await recorded([failing, removed]);
    expect(first).toMatchObject({ key: failing, tries: 0 });
    expect(first!.retryAt).toBeGreaterThanOrEqual(before + 60_000);

    const due = new Date(first!.retryAt);
    // Not yet due: nothing is tried.
    expect(await retryUndeletedImages(db, minutes(due, -0.5), outage.storage)).toBe(0);
    // Due, storage still down: kept, and the next try waits two minutes.
    expect(await retryUndeletedImages(db, due, outage.storage)).toBe(0);
    expect(await recorded([failing])).toEqual([{ key: failing, tries: 1, retryAt: minutes(due, 2).getTime() }]);
    // Storage back: removed and forgotten.
    const back = storageRefusing(new Set());
    expect(await retryUndeletedImages(db, minutes(due, 2), back.storage)).toBeGreaterThanOrEqual(1);
    expect(back.deleted).toContain(failing);
    expect(await recorded([failing])).toEqual([]);
  });

  it("are taken by one of two runs at once, never both", async () => {
    const db = await getDb();
    const keys = [newStorageKey("avatar", "jpg"), newStorageKey("avatar", "jpg"), newStorageKey("avatar", "jpg")];
    await deleteImages(db, keys, storageRefusing(new Set(keys)).storage);
    const later = minutes(new Date(), 5);
    const [one, two] = [storageRefusing(new Set()), storageRefusing(new Set())];
    await Promise.all([retryUndeletedImages(db, later, one.storage), retryUndeletedImages(db, later, two.storage)]);
    const removed = [...one.deleted, ...two.deleted].filter((key) => keys.includes(key));
    expect(removed.sort()).toEqual([...keys].sort());
    expect(await recorded(keys)).toEqual([]);
  });

  it("a deleted account's files are recorded in its transaction, before storage is asked; forgotten once removed, tried again when not", async () => {
    const db = await getDb();
    const withAvatar = async () => {
      const { user } = await signedIn();
      const avatar = ownImage("avatar");
      await db.update(users).set({ avatarUrl: avatar }).where(eq(users.id, user.id));
      return { userId: user.id, key: keyOf(avatar) };
    };
    // Storage is asked after the commit: by then the file is recorded.
    const removed = await withAvatar();
    const recordedWhenAsked: unknown[] = [];
    const watching: ImageStorage = {
      ...storageRefusing(new Set()).storage,
      delete: async (key) => void recordedWhenAsked.push(...(await recorded([key])).map((row) => row.key)),
    };
    await deleteAccount(db, removed.userId, PASSWORD, { storage: watching });
    expect(recordedWhenAsked).toEqual([removed.key]);
    expect(await recorded([removed.key])).toEqual([]);

    const refused = await withAvatar();
    await deleteAccount(db, refused.userId, PASSWORD, { storage: storageRefusing(new Set([refused.key])).storage });
    expect(await recorded([refused.key])).toEqual([expect.objectContaining({ key: refused.key })]);
    const back = storageRefusing(new Set());
    await retryUndeletedImages(db, minutes(new Date(), 5), back.storage);
    expect(back.deleted).toContain(refused.key);
    expect(await recorded([refused.key])).toEqual([]);
  });
});
