import { existsSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { DELETE as deleteAccountRoute } from "@/app/api/account/route";
import { POST as coupleSettings } from "@/app/api/settings/couple/route";
import { POST as step2 } from "@/app/api/onboarding/step2/route";
import { POST as upload } from "@/app/api/uploads/route";
import { getDb } from "@/db/client";
import { couples, stagedPhotos } from "@/db/schema";
import { MAX_REQUEST_BYTES } from "@/lib/http/body";
import { runDueWork } from "@/lib/scheduled/service";
import { STAGED_PHOTO_EXPIRED_MESSAGE, STAGED_PHOTO_HOURS, UPLOAD_TOO_LARGE_MESSAGE } from "@/lib/images/rules";
import { call, PASSWORD } from "../support/api";
import { fileOfUrl, formOf, jpeg, post, postStep1, signedIn, step2Fields, type Fields } from "../support/onboarding";

/**
 * A phone's cropped photo at a device pixel ratio of 3 (1800x1350) that stays close to 1 MB as a
 * JPEG: noise does not compress. Six of them pass the platform's 4.5 MB in one request.
 */
async function photoOfAboutOneMegabyte(seed: number): Promise<Buffer> {
  const width = 1800;
  const height = 1350;
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed * 2654435761;
  for (let i = 0; i < pixels.length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    // Smooth bands with a little noise: a photo's detail, not pure static.
    pixels[i] = ((i / 3) % width) / 8 + (state >>> 26);
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

type Headers = Record<string, string>;

async function stage(headers: Headers, kind: string, photo: Buffer) {
  return post(upload, "/api/uploads", formOf({ kind, photo }), headers);
}

/** A user ready for step 2 (step 1 done). */
async function readyForStep2() {
  const me = await signedIn();
  expect((await postStep1(me.headers)).status).toBe(200);
  return me;
}

const stagedRowsOf = async (userId: string) => (await getDb()).select().from(stagedPhotos).where(eq(stagedPhotos.ownerUserId, userId));

describe("photos uploaded one per request ahead of the save (POST /api/uploads)", () => {
  it("saves step 2 with six ~1 MB photos through the 4.5 MB limit, where one request with all six is refused", async () => {
    const me = await readyForStep2();
    const photos = await Promise.all([1, 2, 3, 4, 5, 6].map(photoOfAboutOneMegabyte));
    const total = photos.reduce((sum, photo) => sum + photo.byteLength, 0);
    expect(Math.min(...photos.map((p) => p.byteLength))).toBeGreaterThan(900_000);
    expect(total).toBeGreaterThan(MAX_REQUEST_BYTES);

    // All six in the save's own request: past the limit, refused whole, nothing written.
    const whole = await post(
      step2,
      "/api/onboarding/step2",
      formOf(await step2Fields({ coupleProfileImage: photos[0], couplePhotos: photos.slice(1) })),
      me.headers,
    );
    expect(whole.status).toBe(413);

    // One per request, then the save names them: every request stays under the limit.
    const ids: string[] = [];
    for (const [index, photo] of photos.entries()) {
      const staged = await stage(me.headers, index === 0 ? "couple-main" : "couple-photo", photo);
      expect(staged.status).toBe(201);
      expect(staged.json.data).toMatchObject({ id: expect.any(String), kind: index === 0 ? "couple-main" : "couple-photo" });
      ids.push(staged.json.data.id);
    }
    const saved = await post(
      step2,
      "/api/onboarding/step2",
      formOf(await step2Fields({ coupleProfileImage: ids[0], couplePhotos: ids.slice(1) })),
      me.headers,
    );
    expect(saved.status).toBe(201);
    const [couple] = await (await getDb()).select().from(couples).where(eq(couples.id, saved.json.data.coupleId));
    expect(couple!.photos).toHaveLength(5);
    // Checked and resized on arrival: the stored files are the app's outputs, not the uploads.
    const main = await sharp(fileOfUrl(couple!.profileImageUrl!)).metadata();
    expect([main.width, main.height]).toEqual([400, 400]);
    const extra = await sharp(fileOfUrl(couple!.photos[0]!)).metadata();
    expect([extra.width, extra.height]).toEqual([600, 450]);
    // Claimed: no longer waiting, so they are never swept.
    expect(await stagedRowsOf(me.user.id)).toEqual([]);
  }, 60_000);

  it("is all or nothing: a refused save writes nothing and keeps the photos for the next try", async () => {
    const me = await readyForStep2();
    const main = (await stage(me.headers, "couple-main", await jpeg())).json.data.id;
    const extra = (await stage(me.headers, "couple-photo", await jpeg(1200, 900))).json.data.id;
    const refused = await post(
      step2,
      "/api/onboarding/step2",
      formOf(await step2Fields({ coupleProfileImage: main, couplePhotos: [extra], bio: "short" })),
      me.headers,
    );
    expect(refused.status).toBe(400);
    expect(await (await getDb()).select().from(couples).where(eq(couples.partner1Id, me.user.id))).toEqual([]);
    expect(await stagedRowsOf(me.user.id)).toHaveLength(2);

    const saved = await post(
      step2,
      "/api/onboarding/step2",
      formOf(await step2Fields({ coupleProfileImage: main, couplePhotos: [extra] })),
      me.headers,
    );
    expect(saved.status).toBe(201);
    expect(await stagedRowsOf(me.user.id)).toEqual([]);
  });

  it("refuses a photo that is another person's, of another kind, named twice or not uploaded, under its field", async () => {
    const me = await readyForStep2();
    const stranger = await signedIn();
    const theirs = (await stage(stranger.headers, "couple-main", await jpeg())).json.data.id;
    const mainKind = (await stage(me.headers, "couple-main", await jpeg())).json.data.id;
    const extraKind = (await stage(me.headers, "couple-photo", await jpeg())).json.data.id;
    const cases: Fields[] = [
      { coupleProfileImage: theirs, couplePhotos: [] },
      { coupleProfileImage: extraKind, couplePhotos: [] },
      { coupleProfileImage: mainKind, couplePhotos: [extraKind, extraKind] },
      { coupleProfileImage: mainKind, couplePhotos: ["00000000-0000-4000-8000-000000000000"] },
    ];
    for (const photos of cases) {
      const res = await post(step2, "/api/onboarding/step2", formOf(await step2Fields(photos)), me.headers);
      expect(res.status).toBe(400);
      expect(res.json.error.message).toBe(STAGED_PHOTO_EXPIRED_MESSAGE);
    }
    const notAnId = await post(
      step2,
      "/api/onboarding/step2",
      formOf(await step2Fields({ coupleProfileImage: "../../etc/passwd" })),
      me.headers,
    );
    expect(notAnId.status).toBe(400);
    // Nothing was claimed by the refusals: the stranger's photo and mine still wait.
    expect(await stagedRowsOf(stranger.user.id)).toHaveLength(1);
    expect(await stagedRowsOf(me.user.id)).toHaveLength(2);
  });

  it("judges an upload by its content and kind, one photo of at most 4 MB", async () => {
    const me = await signedIn();
    expect((await stage(me.headers, "couple-photo", Buffer.from("not an image at all"))).status).toBe(400);
    expect((await stage(me.headers, "avatar", await jpeg())).status).toBe(400);
    expect((await post(upload, "/api/uploads", formOf({ kind: "couple-main" }), me.headers)).status).toBe(400);
    const tooBig = await stage(me.headers, "couple-main", Buffer.concat([await jpeg(), Buffer.alloc(4 * 1024 * 1024)]));
    expect(tooBig.status).toBe(400);
    expect(tooBig.json.error.message).toBe(UPLOAD_TOO_LARGE_MESSAGE);
    // Past one photo and its framing, the body is not even read.
    expect((await stage(me.headers, "couple-main", Buffer.alloc(4_400_000))).status).toBe(413);
    expect((await post(upload, "/api/uploads", formOf({ kind: "couple-main", photo: await jpeg() }), {})).status).toBe(401);
  });

  it("removes photos nobody saved a day later, files included, at the due work's run (no later upload needed)", async () => {
    const me = await signedIn();
    const old = (await stage(me.headers, "couple-photo", await jpeg())).json.data;
    const fresh = (await stage(me.headers, "couple-photo", await jpeg())).json.data;
    expect(existsSync(fileOfUrl(old.url))).toBe(true);
    const db = await getDb();
    await db
      .update(stagedPhotos)
      .set({ createdAt: sql`now() - make_interval(hours => ${STAGED_PHOTO_HOURS + 1})` })
      .where(eq(stagedPhotos.id, old.id));
    expect((await runDueWork(db)).swept).toBeGreaterThanOrEqual(1);
    expect((await stagedRowsOf(me.user.id)).map((row) => row.id)).toEqual([fresh.id]);
    expect(existsSync(fileOfUrl(old.url))).toBe(false);
    expect(existsSync(fileOfUrl(fresh.url))).toBe(true);
  });

  it("saves the couple settings with photos uploaded ahead, and deleting the account removes unsaved ones", async () => {
    const me = await readyForStep2();
    expect((await post(step2, "/api/onboarding/step2", formOf(await step2Fields({ couplePhotos: [] })), me.headers)).status).toBe(201);
    const main = (await stage(me.headers, "couple-main", await jpeg())).json.data;
    const extra = (await stage(me.headers, "couple-photo", await jpeg())).json.data;
    const saved = await post(
      coupleSettings,
      "/api/settings/couple",
      formOf({ coupleName: "Ada & Grace", profileImage: main.id, newPhotos: [extra.id] }),
      me.headers,
    );
    expect(saved.status).toBe(200);
    expect(saved.json.data).toMatchObject({ profileImageUrl: main.url, photos: [extra.url] });

    const unsaved = (await stage(me.headers, "couple-photo", await jpeg())).json.data;
    const gone = await call(deleteAccountRoute, "DELETE", "/api/account", { body: { password: PASSWORD }, headers: me.headers });
    expect(gone.status).toBe(200);
    expect(existsSync(fileOfUrl(unsaved.url))).toBe(false);
  });
});
