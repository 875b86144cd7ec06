import { eq, inArray, sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { stagedPhotos, undeletedImages, users } from "@/db/schema";
import { deleteAccount } from "@/lib/account/deletion";
import { writeWithImages } from "@/lib/images/lifecycle";
import { sweepStagedPhotos } from "@/lib/images/staged";
import { deleteImages } from "@/lib/images/store";
import { retryLater, retryUndeletedImages, writeDeletingImages } from "@/lib/images/undeleted";
import { imageStorage, newStorageKey, type ImageStorage } from "@/lib/storage";
import { PASSWORD } from "../support/api";
import { keyOf, ownImage, signedIn } from "../support/couples";
import { forum, forumCouple, seedPosts } from "../support/forum";

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

/**
 * Storage asked to remove a file never answers: the instance stopped (killed, timed out) between
 * the write's commit and storage. `asked` settles once the write asked it.
 */
function stoppedStorage() {
  let wasAsked!: () => void;
  const asked = new Promise<void>((resolve) => (wasAsked = resolve));
  const storage: ImageStorage = {
    put: async () => ({ url: "" }),
    read: async () => null,
    delete: () => {
      wasAsked();
      return new Promise<void>(() => {});
    },
  };
  return { storage, asked };
}

/** The due work's run a few minutes on, with storage answering: the keys it removed. */
async function dueWorkRemoves(): Promise<string[]> {
  const back = storageRefusing(new Set());
  await retryUndeletedImages(await getDb(), minutes(new Date(), 5), back.storage);
  return back.deleted;
}

describe("files a write takes off its rows, the instance stopping before storage removed them", () => {
  afterEach(() => vi.restoreAllMocks());

  it("a replaced profile photo is recorded in the write's transaction and removed by the due work", async () => {
    const db = await getDb();
    const { user } = await signedIn();
    const old = ownImage("avatar");
    await db.update(users).set({ avatarUrl: old }).where(eq(users.id, user.id));
    const stopped = stoppedStorage();
    void writeWithImages(db, user.id, { storage: stopped.storage }, async (tx) => {
      await tx.update(users).set({ avatarUrl: null }).where(eq(users.id, user.id));
      return { result: null, replaced: [old] };
    });
    await stopped.asked;
    expect(await dueWorkRemoves()).toContain(keyOf(old));
    expect(await recorded([keyOf(old)])).toEqual([]);
  });

  it("a deleted forum post's photos are recorded in its transaction and removed by the due work", async () => {
    const couple = await forumCouple();
    const photos = [ownImage("forum-photo"), ownImage("forum-photo")];
    const [post] = await seedPosts(couple.coupleId, couple.a.userId, 1, { photos });
    const stopped = stoppedStorage();
    vi.spyOn(await imageStorage(), "delete").mockImplementation(stopped.storage.delete);
    void forum.remove(post!.id, couple.a.headers);
    await stopped.asked;
    vi.restoreAllMocks();
    expect(await dueWorkRemoves()).toEqual(expect.arrayContaining(photos.map(keyOf)));
    expect(await recorded(photos.map(keyOf))).toEqual([]);
  });

  it("a swept staged photo is recorded with its row's removal and removed by the due work", async () => {
    const { user } = await signedIn();
    const url = ownImage("avatar");
    await (
      await getDb()
    )
      .insert(stagedPhotos)
      .values({ ownerUserId: user.id, kind: "avatar", key: keyOf(url), url, createdAt: new Date(0) });
    const stopped = stoppedStorage();
    vi.spyOn(await imageStorage(), "delete").mockImplementation(stopped.storage.delete);
    void sweepStagedPhotos(await getDb(), new Date());
    await stopped.asked;
    vi.restoreAllMocks();
    expect(await dueWorkRemoves()).toContain(keyOf(url));
  });
});

describe("files a write takes off its rows inside a caller's transaction", () => {
  it("are only recorded, never removed before that transaction commits: a rollback keeps both file and row", async () => {
    const db = await getDb();
    const { user } = await signedIn();
    const old = ownImage("avatar");
    await db.update(users).set({ avatarUrl: old }).where(eq(users.id, user.id));
    const watched = storageRefusing(new Set());
    const takeOff = (tx: Db) =>
      writeDeletingImages(
        tx,
        async (inner) => {
          await inner.update(users).set({ avatarUrl: null }).where(eq(users.id, user.id));
          return { result: null, deletedKeys: [keyOf(old)] };
        },
        watched.storage,
      );
    await expect(
      transaction(db, async (tx) => {
        await takeOff(tx);
        throw new Error("the caller's write fails after");
      }),
    ).rejects.toThrow("the caller's write fails after");
    expect(watched.deleted).toEqual([]);
    expect((await db.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, user.id)))[0]!.avatarUrl).toBe(old);
    expect(await recorded([keyOf(old)])).toEqual([]);

    await transaction(db, takeOff);
    expect(watched.deleted).toEqual([]);
    expect(await recorded([keyOf(old)])).toHaveLength(1);
    // Committed: the due work removes it.
    expect(await dueWorkRemoves()).toContain(keyOf(old));
    expect(await recorded([keyOf(old)])).toEqual([]);
  });
});

describe("a long list of files to remove", () => {
  it("is removed a few at a time up to a bound, the rest recorded for the due work; tens of thousands recorded at once", async () => {
    const db = await getDb();
    let open = 0;
    let most = 0;
    const deleted: string[] = [];
    const storage: ImageStorage = {
      put: async () => ({ url: "" }),
      read: async () => null,
      delete: async (key) => {
        most = Math.max(most, ++open);
        await new Promise((resolve) => setTimeout(resolve, 1));
        open--;
        deleted.push(key);
      },
    };
    const keys = Array.from({ length: 250 }, () => newStorageKey("message-photo", "jpg"));
    expect(await deleteImages(db, keys, storage)).toBe(200);
    expect(deleted).toEqual(keys.slice(0, 200));
    expect(most).toBe(16);
    expect((await recorded(keys)).map((row) => row.key).sort()).toEqual(keys.slice(200).sort());
    // The due work removes the rest and forgets them.
    const due = minutes(new Date(), 2);
    while ((await recorded(keys)).length > 0) expect(await retryUndeletedImages(db, due, storage)).toBeGreaterThan(0);
    expect(new Set(deleted)).toEqual(new Set(keys));

    // More keys than a statement binds values (two a row): recorded, then forgotten once removed.
    const many = Array.from({ length: 40_000 }, () => newStorageKey("message-photo", "jpg"));
    await retryLater(db, many);
    const [{ count } = { count: 0 }] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(undeletedImages)
      .where(inArray(undeletedImages.key, many.slice(0, 30_000)));
    expect(count).toBe(30_000);
    await db.delete(undeletedImages).where(sql`${undeletedImages.key} like 'message-photo/%'`);
  });
});
