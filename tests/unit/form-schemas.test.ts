import { zodResolver } from "@hookform/resolvers/zod";
import { describe, expect, it } from "vitest";
import { COUPLE_MESSAGES } from "@/lib/couples/rules";
import { FORUM_MESSAGES, postFormSchema, replyFormSchema } from "@/lib/forum/schemas";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { INTEREST_MESSAGES } from "@/lib/interests/rules";
import { LOCATION_REQUIRED_MESSAGE } from "@/lib/locations/rules";
import { step1FormSchema, step2FormSchema } from "@/lib/onboarding/form-schemas";
import { PROFILE_MESSAGES } from "@/lib/profile/rules";
import { interestsToSend } from "@/lib/settings/changes";
import { coupleFormSchema, profileFormSchema } from "@/lib/settings/form-schemas";

/** What a form built with useZodForm receives: its errors keyed by field (in the checks' order), or its values. */
async function check(schema: Parameters<typeof zodResolver>[0], values: Record<string, unknown>) {
  const resolve = zodResolver(schema as never);
  const { errors, values: out } = await resolve(values as never, undefined, { fields: {}, shouldUseNativeValidation: false });
  return { errors: Object.entries(errors).map(([field, error]) => [field, (error as { message?: string }).message]), values: out };
}

const photo = { dataUrl: "data:image/jpeg;base64,AA==" };

describe("the onboarding steps' form schemas", () => {
  it("step 1: every problem of an empty form on its field, in the spec's order; a picked photo is the same object after the checks", async () => {
    const empty = { userImage: null, occupation: "", location: null, interests: [] };
    expect((await check(step1FormSchema(false), empty)).errors).toEqual([
      ["userImage", PROFILE_MESSAGES.photoRequired],
      ["location", LOCATION_REQUIRED_MESSAGE],
      ["occupation", PROFILE_MESSAGES.occupationRequired],
      ["interests", INTEREST_MESSAGES.interestsTooFew],
    ]);
    const complete = {
      userImage: photo,
      occupation: "Engineer",
      location: { location: "Lisbon, Portugal", placeId: "geonames:2267057" },
      interests: INTEREST_VALUES.slice(0, 5),
    };
    const passed = await check(step1FormSchema(false), complete);
    expect(passed.errors).toEqual([]);
    expect((passed.values as typeof complete).userImage).toBe(photo);
    // The photo saved before counts as the photo.
    expect((await check(step1FormSchema(true), { ...complete, userImage: null })).errors).toEqual([]);
  });

  it("step 2: name, main photo, styles, bio, then the extra photos' limit", async () => {
    const empty = { couple_name: " ", coupleProfileImage: null, couplePhotos: [], coupleTypes: [], bio: "" };
    expect((await check(step2FormSchema(), empty)).errors).toEqual([
      ["couple_name", COUPLE_MESSAGES.coupleNameRequired],
      ["coupleProfileImage", COUPLE_MESSAGES.mainPhotoRequired],
      ["coupleTypes", COUPLE_MESSAGES.coupleTypesTooFew],
      ["bio", COUPLE_MESSAGES.bioTooShort],
    ]);
    const complete = {
      couple_name: "Ada & Grace",
      coupleProfileImage: photo,
      couplePhotos: [],
      coupleTypes: ["global_adventurers"],
      bio: "We love long walks.",
    };
    expect((await check(step2FormSchema(), complete)).errors).toEqual([]);
    expect((await check(step2FormSchema(), { ...complete, couplePhotos: Array(6).fill(photo) })).errors).toEqual([
      ["couplePhotos", "You can only upload up to 5 photos. You currently have 6."],
    ]);
  });
});

describe("the settings' form schemas", () => {
  it("'Your profile': the profile schema's messages on the fields; the photo is left to the server", async () => {
    const values = {
      firstName: "",
      lastName: "Hart",
      occupation: "Engineer",
      interests: INTEREST_VALUES.slice(0, 5),
      savedInterests: [],
      avatarUrl: null,
      avatar: null,
    };
    const { errors } = await check(profileFormSchema(), values);
    expect(errors.map(([field]) => field)).toEqual(["firstName"]);
    expect((await check(profileFormSchema(), { ...values, firstName: "Robin" })).errors).toEqual([]);
  });

  it("'Your profile': interests are judged only when changed, as only a changed list is sent (the server leaves them alone without one)", async () => {
    const saved = INTEREST_VALUES.slice(0, 5);
    // Partner B joined by invitation with none: the names save before any is picked.
    const invited = {
      firstName: "Robin",
      lastName: "Hart",
      occupation: "Engineer",
      interests: [],
      savedInterests: [],
      avatarUrl: null,
      avatar: null,
    };
    expect((await check(profileFormSchema(), invited)).errors).toEqual([]);
    expect(interestsToSend(invited)).toBeUndefined();
    const tooFew = { ...invited, interests: saved.slice(0, 2) };
    expect((await check(profileFormSchema(), tooFew)).errors).toEqual([["interests", INTEREST_MESSAGES.interestsTooFew]]);
    expect(interestsToSend({ interests: [...saved].reverse(), savedInterests: saved })).toBeUndefined();
    expect((await check(profileFormSchema(), { ...invited, interests: [], savedInterests: saved })).errors).toEqual([
      ["interests", INTEREST_MESSAGES.interestsTooFew],
    ]);
  });

  it("'Couple profile': the onboarding's couple checks under the settings' names; a saved main photo counts, kept and new photos count together", async () => {
    const values = { coupleName: "", bio: "", coupleTypes: [], profileImageUrl: null, profileImage: null, photos: [], newPhotos: [] };
    expect((await check(coupleFormSchema(), values)).errors).toEqual([
      ["coupleName", COUPLE_MESSAGES.coupleNameRequired],
      ["profileImage", COUPLE_MESSAGES.mainPhotoRequired],
      ["coupleTypes", COUPLE_MESSAGES.coupleTypesTooFew],
      ["bio", COUPLE_MESSAGES.bioTooShort],
    ]);
    const saved = {
      ...values,
      coupleName: "Ada & Grace",
      bio: "We love long walks.",
      coupleTypes: ["global_adventurers"],
      profileImageUrl: "/uploads/main.jpg",
    };
    expect((await check(coupleFormSchema(), saved)).errors).toEqual([]);
    expect(
      (await check(coupleFormSchema(), { ...saved, photos: ["/a.jpg", "/b.jpg", "/c.jpg"], newPhotos: [photo, photo, photo] })).errors,
    ).toEqual([["photos", "You can only upload up to 5 photos. You currently have 6."]]);
  });
});

describe("the forum's form schemas", () => {
  const ada = { coupleId: "0b6f5f62-2a1b-4c3e-9d7e-1f2a3b4c5d6e", name: "Ada" };
  const grace = { coupleId: "1c7a6a73-3b2c-4d4f-8e8f-2a3b4c5d6e7f", name: "Grace" };

  it("a post sends only the couples still named in its text, as ids; an empty form says the call's messages", async () => {
    const post = {
      title: "Weekend in Porto",
      topic: "travel",
      body: "Who joins @Ada in Porto?",
      scope: "global",
      photos: [],
      mentions: [ada, grace],
    };
    const { errors, values } = await check(postFormSchema, post);
    expect(errors).toEqual([]);
    expect(values).toMatchObject({ title: "Weekend in Porto", mentions: [ada.coupleId] });
    const empty = await check(postFormSchema, { ...post, title: "", body: "", mentions: [] });
    expect(Object.fromEntries(empty.errors)).toMatchObject({ title: FORUM_MESSAGES.titleRequired, body: FORUM_MESSAGES.bodyRequired });
  });

  it("a reply: its message when empty, its mentions as ids", async () => {
    expect((await check(replyFormSchema, { body: " ", mentions: [] })).errors).toEqual([["body", FORUM_MESSAGES.replyRequired]]);
    expect((await check(replyFormSchema, { body: "Thanks @Grace!", mentions: [ada, grace] })).values).toEqual({
      body: "Thanks @Grace!",
      mentions: [grace.coupleId],
    });
  });
});
