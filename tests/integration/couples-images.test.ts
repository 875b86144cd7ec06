import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { updateCouple } from "@/lib/couples/service";
import { completeProfileSetup } from "@/lib/profile/service";
import { failingDb } from "../support/failing-db";
import { nextWhileWaiting, whileHeld } from "../support/lock-race";
import { onPostgres } from "../support/test-database";
import {
  NOT_STORED,
  ownImage,
  setupBody,
  postSetup,
  putCouple,
  withCouple,
  coupleRow,
  showPhotos,
  joinAsPartnerB,
  recordingStorage,
  keyOf,
} from "../support/couples";

describe("image URLs in JSON calls", () => {
  it("refuses another couple's photo, on the couple and as the caller's avatar, and changes nothing", async () => {
    const theirs = await withCouple();
    const theirPhoto = ownImage("couple-main");
    await showPhotos(theirs.coupleId, { profileImageUrl: theirPhoto });
    const { user, headers, coupleId } = await withCouple();

    const res = await putCouple(coupleId, { profileImageUrl: theirPhoto }, headers);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "VALIDATION_ERROR", fields: { profileImageUrl: NOT_STORED } });
    expect((await coupleRow(coupleId))!.profileImageUrl).toBeNull();
    const setup = await postSetup(setupBody({ userData: { avatarUrl: theirPhoto } }), headers);
    expect(setup.json.error).toMatchObject({ code: "VALIDATION_ERROR", fields: { "userData.avatarUrl": NOT_STORED } });
    const db = await getDb();
    const [me] = await db.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, user.id));
    expect(me!.avatarUrl).toBe(user.avatarUrl);
  });
});

describe("replaced couple photos", () => {
  it("removes the main photo and the extra photos a change dropped, once it is saved, and keeps the rest", async () => {
    const [keptPhoto, droppedPhoto, promoted, oldMain] = [ownImage(), ownImage(), ownImage(), ownImage("couple-main")];
    const { user, coupleId } = await withCouple();
    await showPhotos(coupleId, { photos: [keptPhoto, droppedPhoto, promoted], profileImageUrl: oldMain });
    const { storage, deleted } = recordingStorage();
    await updateCouple(await getDb(), user.id, coupleId, { profileImageUrl: promoted, photos: [keptPhoto] }, { storage });
    expect(deleted.sort()).toEqual([keyOf(droppedPhoto), keyOf(oldMain)].sort());
    expect(await coupleRow(coupleId)).toMatchObject({ profileImageUrl: promoted, photos: [keptPhoto] });
  });

  it("removes nothing when the photos did not change, and nothing when the change fails", async () => {
    const { user, coupleId } = await withCouple();
    const { storage, deleted } = recordingStorage();
    await updateCouple(await getDb(), user.id, coupleId, { coupleName: "Same photos" }, { storage });
    await expect(updateCouple(await failingDb(), user.id, coupleId, { photos: [] }, { storage })).rejects.toThrow();
    expect(deleted).toEqual([]);
  });

  it("keeps a replaced photo that a partner's profile still shows", async () => {
    const [shared, other] = [ownImage("couple-main"), ownImage()];
    const { user, coupleId } = await withCouple();
    await showPhotos(coupleId, { profileImageUrl: shared, photos: [other] });
    const b = await joinAsPartnerB(coupleId);
    const db = await getDb();
    await db.update(users).set({ avatarUrl: shared }).where(eq(users.id, b.user.id));
    const { storage, deleted } = recordingStorage();
    await updateCouple(db, user.id, coupleId, { profileImageUrl: other, photos: [] }, { storage });
    expect(deleted).toEqual([]);
  });

  it("removes the avatar and couple photo that complete-setup replaced", async () => {
    const oldAvatar = ownImage("avatar");
    const oldMain = ownImage("couple-main");
    const [toAvatar, toMain] = [ownImage(), ownImage()];
    const { user, coupleId } = await withCouple();
    await showPhotos(coupleId, { profileImageUrl: oldMain, photos: [toAvatar, toMain] });
    const db = await getDb();
    await db.update(users).set({ avatarUrl: oldAvatar }).where(eq(users.id, user.id));
    const { storage, deleted } = recordingStorage();
    const { profileCompletionSchema } = await import("@/lib/profile/schemas");
    // Couple photos move to the avatar and the main photo: they stay, the two they replaced go.
    const body = setupBody({ userData: { avatarUrl: toAvatar }, coupleData: { profileImageUrl: toMain, photos: [] } });
    await completeProfileSetup(db, user.id, profileCompletionSchema.parse(body), { storage });
    expect(deleted.sort()).toEqual([keyOf(oldAvatar), keyOf(oldMain)].sort());
    expect((await coupleRow(coupleId))!.profileImageUrl).toBe(toMain);
  });
});

describe.skipIf(!onPostgres())("an image named while the partner's save takes it off the couple", () => {
  it("is refused once that save commits, never shown with its file removed", async () => {
    const [main, extra] = [ownImage("couple-main"), ownImage()];
    const { user, coupleId } = await withCouple();
    await showPhotos(coupleId, { profileImageUrl: main, photos: [extra] });
    const { storage, deleted } = recordingStorage();
    const db = await getDb();
    // The partner's save is under way: it took the extra photo off the couple, and removes its file once it commits.
    const [answer] = await whileHeld(
      (tx) => tx`update couples set photos = '{}' where id = ${coupleId}`,
      [
        () =>
          updateCouple(db, user.id, coupleId, { profileImageUrl: extra }, { storage }).then(
            () => "saved",
            (error: { code?: string }) => error.code,
          ),
      ],
    );
    expect(answer).toBe("VALIDATION_ERROR");
    expect(await coupleRow(coupleId)).toMatchObject({ profileImageUrl: main, photos: [] });
    expect(deleted).toEqual([]);
  });
});

describe.skipIf(!onPostgres())("a couple's save telling the partner while the partner's own save holds their row", () => {
  it("waits for that row before the couple's, so the two never wait on each other", async () => {
    const { user, coupleId } = await withCouple();
    const partner = await joinAsPartnerB(coupleId);
    const db = await getDb();
    const { waited, answer } = await nextWhileWaiting(
      // What the partner's profile save naming an image (lib/images/lifecycle.ts) or their account's deletion takes first...
      (tx) => tx`select id from users where id = ${partner.user.id} for update`,
      () =>
        updateCouple(db, user.id, coupleId, { coupleName: "Told the partner" }, { notifyPartner: true }).then(
          (couple) => couple.coupleName,
        ),
      // ...and then the couple's row. NOWAIT: it fails if the save holds it while it waits on the partner's row (its notice).
      (tx) => tx`select id from couples where id = ${coupleId} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer).toBe("Told the partner");
  });
});
