import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { POST as profileRoute } from "@/app/api/settings/profile/route";
import { POST as coupleRoute } from "@/app/api/settings/couple/route";
import { getDb } from "@/db/client";
import { couples, emailOutbox, liveEvents, rateLimitHits, users } from "@/db/schema";
import { listNotifications } from "@/lib/notifications/queries";
import { notificationHref } from "@/lib/notifications/rules";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { IMAGE_URL_REFUSED_MESSAGE } from "@/lib/images/rules";
import { clearHits, LIMITS } from "@/lib/rate-limit";
import { browserSession } from "../support/api";
import { whileHeld } from "../support/lock-race";
import { onPostgres } from "../support/test-database";
import { fileOfUrl, formOf, jpeg, post, postStep1, postStep2, signedIn, storedFiles, type Fields } from "../support/onboarding";

type Headers = Record<string, string>;

/** A person through both onboarding steps: their avatar, the couple's main photo and two more are stored files. */
async function onboarded() {
  const signed = await signedIn();
  expect((await postStep1(signed.headers)).status).toBe(200);
  const step2 = await postStep2(signed.headers);
  expect(step2.status).toBe(201);
  return { ...signed, coupleId: step2.json.data.coupleId as string };
}

const userRow = async (id: string) => (await (await getDb()).select().from(users).where(eq(users.id, id)))[0]!;
const coupleRow = async (id: string) => (await (await getDb()).select().from(couples).where(eq(couples.id, id)))[0]!;
const stored = (url: string) => url.replace(/^\/api\/images\//, "");

const postProfile = (fields: Fields, headers: Headers) => post(profileRoute, "/api/settings/profile", formOf(fields), headers);
const postCouple = (fields: Fields, headers: Headers) => post(coupleRoute, "/api/settings/couple", formOf(fields), headers);

const profileFields = (overrides: Fields = {}): Fields => ({
  firstName: "Adele",
  lastName: "Lovelace-King",
  occupation: "Analyst",
  "interests[]": INTEREST_VALUES.slice(3, 9),
  ...overrides,
});

describe("POST /api/settings/profile ('Your profile')", () => {
  it("saves names, occupation and interests, and a new photo replaces the old one, whose file is removed", async () => {
    const { user, headers } = await onboarded();
    const before = await userRow(user.id);
    const res = await postProfile(profileFields({ avatar: await jpeg(1000, 1000) }), headers);
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ firstName: "Adele", lastName: "Lovelace-King", occupation: "Analyst" });
    const after = await userRow(user.id);
    expect(after).toMatchObject({
      firstName: "Adele",
      lastName: "Lovelace-King",
      occupation: "Analyst",
      interests: INTEREST_VALUES.slice(3, 9),
    });
    expect(after.avatarUrl).not.toBe(before.avatarUrl);
    expect(await sharp(fileOfUrl(after.avatarUrl!)).metadata()).toMatchObject({ width: 400, height: 400 });
    const files = await storedFiles();
    expect(files).toContain(stored(after.avatarUrl!));
    expect(files).not.toContain(stored(before.avatarUrl!));
  });

  it("counts a photo sent with the form as one uploaded ahead: past the hour's 60, 429 with Retry-After, and a form without a photo still saves", async () => {
    const { user, headers } = await onboarded();
    const limit = LIMITS.stagedPhotosPerUser;
    const db = await getDb();
    // Sixty photos an hour, the onboarding's among them: 59 spent, so one more fits.
    await clearHits(db, limit, user.id);
    await db.insert(rateLimitHits).values(Array.from({ length: limit.limit - 1 }, () => ({ bucket: limit.bucket, subject: user.id })));
    expect((await postProfile(profileFields({ avatar: await jpeg(400, 400) }), headers)).status).toBe(200);
    const saved = (await userRow(user.id)).avatarUrl;

    const over = await postProfile(profileFields({ avatar: await jpeg(400, 400) }), headers);
    expect(over.status).toBe(429);
    expect(over.json.error.message).toBe(limit.message);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await userRow(user.id)).avatarUrl).toBe(saved);
    // Only photos count: the same form without one still saves.
    expect((await postProfile(profileFields({ occupation: "Cartographer" }), headers)).status).toBe(200);
  });

  it("saves a new photo sent alone, and refuses a form with nothing in it", async () => {
    const { user, headers } = await onboarded();
    const before = await userRow(user.id);
    const res = await postProfile({ avatar: await jpeg(800, 800) }, headers);
    expect(res.status).toBe(200);
    const after = await userRow(user.id);
    expect(after.avatarUrl).not.toBe(before.avatarUrl);
    // Nothing else of the person changes.
    expect({ ...after, avatarUrl: before.avatarUrl, updatedAt: before.updatedAt }).toEqual(before);
    const empty = await postProfile({}, headers);
    expect(empty.status).toBe(400);
    expect(empty.json.error.message).toBe("Nothing to update");
  });

  it("keeps the photo when none is sent", async () => {
    const { user, headers } = await onboarded();
    const before = await userRow(user.id);
    expect((await postProfile(profileFields(), headers)).status).toBe(200);
    expect((await userRow(user.id)).avatarUrl).toBe(before.avatarUrl);
  });

  it.each([
    ["an empty first name", { firstName: " " }, "firstName"],
    ["four interests", { "interests[]": INTEREST_VALUES.slice(0, 4) }, "interests"],
    ["an unknown interest", { "interests[]": [...INTEREST_VALUES.slice(0, 5), "knitting-on-mars"] }, "interests"],
    ["an empty occupation", { occupation: "" }, "occupation"],
    // A refused photo's message is on the photo's field, so the form marks and focuses it.
    ["a photo that is not an image", { avatar: Buffer.from("not an image at all") }, "avatar"],
    ["a photo cut off after its header", { avatar: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]) }, "avatar"],
  ])("refuses %s with 400 and changes nothing", async (_case, overrides, field) => {
    const { user, headers } = await onboarded();
    const before = await userRow(user.id);
    const filesBefore = await storedFiles();
    const res = await postProfile(profileFields(overrides), headers);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_ERROR");
    const fieldOf = (key: string) => key.split(".")[0];
    expect(Object.keys(res.json.error.fields ?? {}).map(fieldOf)).toContain(field);
    expect(await userRow(user.id)).toEqual(before);
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it("answers 401 without a session and 403 without the CSRF token", async () => {
    const { user, headers } = await onboarded();
    expect((await postProfile(profileFields(), {})).status).toBe(401);
    expect((await postProfile(profileFields(), { cookie: headers.cookie })).status).toBe(403);
    expect((await userRow(user.id)).firstName).not.toBe("Adele");
  });
});

const coupleFields = (overrides: Fields = {}): Fields => ({
  coupleName: "Ada & Grace, again",
  bio: "Still travelling, still cooking, fewer arguments about maps.",
  "coupleTypes[]": ["mindful_adventurers"],
  ...overrides,
});

/** A second person joined to the couple as partner B, with their browser session. */
async function joinedPartnerB(coupleId: string) {
  const partnerB = await signedIn();
  const db = await getDb();
  await db.update(users).set({ occupation: "Poet" }).where(eq(users.id, partnerB.user.id));
  await db.update(couples).set({ partner2Id: partnerB.user.id }).where(eq(couples.id, coupleId));
  const session = await browserSession(partnerB.user.id);
  return { ...partnerB, headers: { cookie: session.cookie, "x-csrf-token": session.csrf } };
}

describe("POST /api/settings/couple ('Couple profile')", () => {
  it("saves the fields, replaces the main photo, keeps one extra, adds one, and removes the files no longer shown", async () => {
    const { headers, coupleId } = await onboarded();
    const before = await coupleRow(coupleId);
    const [keep, drop] = before.photos;
    const res = await postCouple(
      coupleFields({ removedPhotos: JSON.stringify([drop]), profileImage: await jpeg(), newPhotos: [await jpeg(1200, 900)] }),
      headers,
    );
    expect(res.status).toBe(200);
    const after = await coupleRow(coupleId);
    expect(after).toMatchObject({
      coupleName: "Ada & Grace, again",
      bio: "Still travelling, still cooking, fewer arguments about maps.",
      coupleTypes: ["mindful_adventurers"],
    });
    expect(res.json.data).toMatchObject({
      id: coupleId,
      coupleName: "Ada & Grace, again",
      photos: after.photos,
      profileImageUrl: after.profileImageUrl,
    });
    expect(after.photos).toHaveLength(2);
    expect(after.photos[0]).toBe(keep);
    expect(await sharp(fileOfUrl(after.photos[1]!)).metadata()).toMatchObject({ width: 600, height: 450 });
    expect(after.profileImageUrl).not.toBe(before.profileImageUrl);
    const files = await storedFiles();
    expect(files).not.toContain(stored(drop!));
    expect(files).not.toContain(stored(before.profileImageUrl!));
    expect(files).toContain(stored(after.profileImageUrl!));
  });

  it("saves new photos alone (the form sends only what changed), and refuses a form with nothing in it", async () => {
    const { headers, coupleId } = await onboarded();
    const before = await coupleRow(coupleId);
    const res = await postCouple({ profileImage: await jpeg() }, headers);
    expect(res.status).toBe(200);
    const after = await coupleRow(coupleId);
    expect(after.profileImageUrl).not.toBe(before.profileImageUrl);
    expect(after).toMatchObject({ coupleName: before.coupleName, bio: before.bio, photos: before.photos });
    const extra = await postCouple({ newPhotos: [await jpeg(1200, 900)] }, headers);
    expect(extra.status).toBe(200);
    expect((await coupleRow(coupleId)).photos).toEqual([...before.photos, ...extra.json.data.photos.slice(before.photos.length)]);
    expect((await coupleRow(coupleId)).photos).toHaveLength(before.photos.length + 1);
    const empty = await postCouple({}, headers);
    expect(empty.status).toBe(400);
    expect(empty.json.error.message).toBe("Nothing to update");
  });

  it("refuses a removed-photos list past its size before reading it, a longer list than a page shows, and one that is not URLs", async () => {
    const { headers, coupleId } = await onboarded();
    const before = await coupleRow(coupleId);
    const huge = await postCouple({ removedPhotos: `[${"1,".repeat(200_000)}1]` }, headers);
    expect(huge.status).toBe(400);
    expect(huge.json.error.message).toBe(IMAGE_URL_REFUSED_MESSAGE);
    const many = await postCouple({ removedPhotos: JSON.stringify(Array.from({ length: 6 }, () => before.photos[0])) }, headers);
    expect(many.status).toBe(400);
    expect(many.json.error.fields.photos).toBe(IMAGE_URL_REFUSED_MESSAGE);
    const numbers = await postCouple({ removedPhotos: JSON.stringify([1]) }, headers);
    expect(numbers.status).toBe(400);
    expect(numbers.json.error.message).toBe(IMAGE_URL_REFUSED_MESSAGE);
    expect((await coupleRow(coupleId)).photos).toEqual(before.photos);
  });

  it("keeps a photo the partner added after this page loaded when a photo is removed here, and its file", async () => {
    const { headers, coupleId } = await onboarded();
    const partnerB = await joinedPartnerB(coupleId);
    // B's page loads showing [p1, p2]; A then adds y; B removes p2 from the page loaded before.
    const [p1, p2] = (await coupleRow(coupleId)).photos;
    const added = await postCouple({ newPhotos: [await jpeg(1200, 900)] }, headers);
    expect(added.status).toBe(200);
    const y = added.json.data.photos[2] as string;
    expect(added.json.data.photos).toEqual([p1, p2, y]);
    const res = await postCouple({ removedPhotos: JSON.stringify([p2]) }, partnerB.headers);
    expect(res.status).toBe(200);
    expect(res.json.data.photos).toEqual([p1, y]);
    expect((await coupleRow(coupleId)).photos).toEqual([p1, y]);
    const files = await storedFiles();
    expect(files).toContain(stored(y));
    expect(files).toContain(stored(p1!));
    expect(files).not.toContain(stored(p2!));
  });

  it("lets partner B edit the couple", async () => {
    const { coupleId } = await onboarded();
    const partnerB = await joinedPartnerB(coupleId);
    const res = await postCouple(coupleFields({ coupleName: "Bea & Ada" }), partnerB.headers);
    expect(res.status).toBe(200);
    expect((await coupleRow(coupleId)).coupleName).toBe("Bea & Ada");
  });

  it("tells the other partner '<First name> updated your couple profile' in the app (not by e-mail, live on the bell), and not the one who saved", async () => {
    const { user, headers, coupleId } = await onboarded();
    const partnerB = await signedIn();
    const db = await getDb();
    await db.update(couples).set({ partner2Id: partnerB.user.id }).where(eq(couples.id, coupleId));
    const { firstName } = await userRow(user.id);
    const res = await postCouple(coupleFields(), headers);
    expect(res.status).toBe(200);
    const toB = await listNotifications(db, partnerB.user.id, { limit: 20, offset: 0 });
    expect(toB.data).toHaveLength(1);
    expect(toB.data[0]).toMatchObject({
      type: "partner_updated_couple_profile",
      title: `${firstName} updated your couple profile`,
      is_read: false,
    });
    expect(notificationHref(toB.data[0]!)).toBe("/profile");
    expect((await listNotifications(db, user.id, { limit: 20, offset: 0 })).data).toEqual([]);
    const bell = await db
      .select({ kind: liveEvents.kind, subjectId: liveEvents.subjectId })
      .from(liveEvents)
      .where(eq(liveEvents.userId, partnerB.user.id));
    expect(bell).toContainEqual({ kind: "notification", subjectId: toB.data[0]!.id });
    expect(await db.select({ to: emailOutbox.to }).from(emailOutbox).where(eq(emailOutbox.to, partnerB.user.email))).toEqual([]);
  });

  it("refuses a sixth extra photo with the onboarding message, storing nothing", async () => {
    const { headers, coupleId } = await onboarded();
    const before = await coupleRow(coupleId);
    const filesBefore = await storedFiles();
    const res = await postCouple(coupleFields({ newPhotos: [await jpeg(), await jpeg(), await jpeg(), await jpeg()] }), headers);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: "VALIDATION_ERROR",
      message: "You can only upload up to 5 photos. You currently have 6.",
      fields: { photos: "You can only upload up to 5 photos. You currently have 6." },
    });
    expect(await coupleRow(coupleId)).toEqual(before);
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it("removes nothing when the photo named is another couple's: both couples and their files stay as they were", async () => {
    const mine = await onboarded();
    const theirs = await onboarded();
    const theirsBefore = await coupleRow(theirs.coupleId);
    const mineBefore = await coupleRow(mine.coupleId);
    const res = await postCouple({ removedPhotos: JSON.stringify([theirsBefore.photos[0]]) }, mine.headers);
    expect(res.status).toBe(200);
    expect((await coupleRow(mine.coupleId)).photos).toEqual(mineBefore.photos);
    expect(await coupleRow(theirs.coupleId)).toEqual(theirsBefore);
    expect(await storedFiles()).toContain(stored(theirsBefore.photos[0]!));
  });

  it.each([
    ["a bio under 10 characters", { bio: "short" }, "bio", "Please share more about yourselves (at least 10 characters)"],
    [
      "four adventure styles",
      { "coupleTypes[]": ["global_adventurers", "culture_curators", "mindful_adventurers", "career_climbers"] },
      "coupleTypes",
      "Please select up to 3 adventure styles",
    ],
    ["an empty couple name", { coupleName: "" }, "coupleName", "Please enter your couple name"],
    [
      "removed photos that are not a list",
      { removedPhotos: "{not json" },
      "photos",
      "Please upload the photo here: links to images elsewhere are not accepted",
    ],
  ])("refuses %s with its onboarding message and changes nothing", async (_case, overrides, field, message) => {
    const { headers, coupleId } = await onboarded();
    const before = await coupleRow(coupleId);
    const res = await postCouple(coupleFields(overrides), headers);
    expect(res.status).toBe(400);
    expect(res.json.error.fields[field]).toBe(message);
    expect(await coupleRow(coupleId)).toEqual(before);
  });

  it("answers a person without a couple (no complete profile) with 409 and 401 without a session", async () => {
    const loner = await signedIn();
    expect((await postCouple(coupleFields(), loner.headers)).status).toBe(409);
    expect((await postCouple(coupleFields(), {})).status).toBe(401);
  });
});

describe.skipIf(!onPostgres())("POST /api/settings/couple, both partners adding a photo at one instant", () => {
  it("keeps both new photos and their files: the second save builds on the first", async () => {
    const { headers, coupleId } = await onboarded();
    const partnerB = await joinedPartnerB(coupleId);
    const before = (await coupleRow(coupleId)).photos;
    const [fromA, fromB] = [await jpeg(1200, 900), await jpeg(1000, 750)];
    // Another transaction holds the couple's row while both saves reach it; each then waits its turn.
    const answers = await whileHeld(
      (tx) => tx`select id from couples where id = ${coupleId} for update`,
      [() => postCouple({ newPhotos: [fromA] }, headers), () => postCouple({ newPhotos: [fromB] }, partnerB.headers)],
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const added = new Set(answers.flatMap((answer) => (answer.json.data.photos as string[]).filter((url) => !before.includes(url))));
    expect(added.size).toBe(2);
    const after = (await coupleRow(coupleId)).photos;
    expect(after).toEqual([...before, ...added]);
    const files = await storedFiles();
    for (const url of after) expect(files).toContain(stored(url));
  });
});
