import { describe, expect, it } from "vitest";
import { clearDraft, draftKey, type DraftStore } from "@/lib/forms/draft-store";
import { coupleDraft, individualDraft, type CoupleDraft, type IndividualDraft } from "@/lib/onboarding/drafts";
import { MemoryStorage } from "../support/memory-storage";

const photo = (name: string) => ({ dataUrl: `data:image/jpeg;base64,${"A".repeat(400)}`, name, size: 300, width: 400, height: 400 });
const lisbon = {
  location: "Lisbon, Portugal",
  placeId: "geonames:2267057",
  latitude: 38.7,
  longitude: -9.1,
  city: "Lisbon",
  country: "Portugal",
};

const individual: IndividualDraft = {
  userImage: photo("me.jpg"),
  occupation: "Engineer",
  interests: ["travel", "music"],
  location: lisbon,
};
const couple: CoupleDraft = {
  couple_name: "Ada & Grace",
  coupleTypes: ["global_adventurers", "culture_curators"],
  bio: "We travel.",
  coupleProfileImage: photo("us.jpg"),
  couplePhotos: [photo("a.jpg"), photo("b.jpg")],
};

/** Both parts, as a form that just changed a photo writes them. */
function saveBoth<T extends Record<string, unknown>>(store: DraftStore<T>, storage: Storage | null, userId: string, draft: T) {
  store.saveText(storage, userId, draft);
  store.savePhotos(storage, userId, draft);
}
const saveIndividualDraft = (storage: Storage | null, userId: string, draft: IndividualDraft) =>
  saveBoth(individualDraft, storage, userId, draft);
const saveCoupleDraft = (storage: Storage | null, userId: string, draft: CoupleDraft) => saveBoth(coupleDraft, storage, userId, draft);
const loadIndividualDraft = individualDraft.load;
const loadCoupleDraft = coupleDraft.load;

describe("onboarding drafts", () => {
  it("keys a draft by user id and form name", () => {
    expect(draftKey("u1", "individual_profile")).toBe("u1:individual_profile");
    expect(draftKey("u1", "couple_profile")).toBe("u1:couple_profile");
  });

  it("keeps the photos under their own key, so the text is written without them", () => {
    const storage = new MemoryStorage();
    coupleDraft.saveText(storage, "u1", couple);
    expect(storage.getItem("u1:couple_profile")).not.toContain("data:image");
    expect(storage.getItem("u1:couple_profile:photos")).toBeNull();
    expect(loadCoupleDraft(storage, "u1")).toEqual({ ...couple, coupleProfileImage: null, couplePhotos: [] });
    coupleDraft.savePhotos(storage, "u1", couple);
    expect(JSON.parse(storage.getItem("u1:couple_profile:photos")!)).toEqual({
      coupleProfileImage: couple.coupleProfileImage,
      couplePhotos: couple.couplePhotos,
    });
    expect(loadCoupleDraft(storage, "u1")).toEqual(couple);
  });

  it("restores both drafts as saved, photo previews included", () => {
    const storage = new MemoryStorage();
    saveIndividualDraft(storage, "u1", individual);
    saveCoupleDraft(storage, "u1", couple);
    expect(loadIndividualDraft(storage, "u1")).toEqual(individual);
    expect(loadCoupleDraft(storage, "u1")).toEqual(couple);
  });

  it("keeps one user's draft from another user in the same tab", () => {
    const storage = new MemoryStorage();
    saveIndividualDraft(storage, "u1", individual);
    expect(loadIndividualDraft(storage, "u2")).toBeNull();
  });

  it("drops adventure styles that are no longer offered", () => {
    const storage = new MemoryStorage();
    storage.setItem(
      draftKey("u1", "couple_profile"),
      JSON.stringify({ ...couple, coupleTypes: ["adventure_first", "culture_curators", "foodie_explorers", "culture_curators"] }),
    );
    expect(loadCoupleDraft(storage, "u1")?.coupleTypes).toEqual(["culture_curators"]);
  });

  it("keeps the text when storage is too full for the photos", () => {
    // The quota counts the key too.
    const { userImage: _photo, ...individualText } = individual;
    const textOnly = draftKey("u1", "individual_profile").length + JSON.stringify(individualText).length;
    const storage = new MemoryStorage(textOnly + 10);
    saveIndividualDraft(storage, "u1", individual);
    expect(loadIndividualDraft(storage, "u1")).toEqual({ ...individual, userImage: null });

    const { coupleProfileImage: _main, couplePhotos: _photos, ...coupleText } = couple;
    const coupleStorage = new MemoryStorage(draftKey("u1", "couple_profile").length + JSON.stringify(coupleText).length);
    saveCoupleDraft(coupleStorage, "u1", couple);
    expect(loadCoupleDraft(coupleStorage, "u1")).toEqual({ ...couple, coupleProfileImage: null, couplePhotos: [] });
  });

  it("never throws when storage refuses everything or is missing", () => {
    expect(() => saveIndividualDraft(new MemoryStorage(0), "u1", individual)).not.toThrow();
    expect(() => saveCoupleDraft(null, "u1", couple)).not.toThrow();
    expect(loadIndividualDraft(null, "u1")).toBeNull();
    expect(() => clearDraft(null, "u1", "couple_profile")).not.toThrow();
  });

  it("ignores a draft that is not JSON, and resets fields of the wrong shape", () => {
    const storage = new MemoryStorage();
    storage.setItem(draftKey("u1", "individual_profile"), "{not json");
    expect(loadIndividualDraft(storage, "u1")).toBeNull();
    storage.setItem(
      draftKey("u1", "individual_profile"),
      JSON.stringify({ occupation: 42, interests: "travel", userImage: { dataUrl: "javascript:alert(1)" } }),
    );
    expect(loadIndividualDraft(storage, "u1")).toEqual({ userImage: null, occupation: "", interests: [], location: null });
  });

  it("is gone once cleared", () => {
    const storage = new MemoryStorage();
    saveCoupleDraft(storage, "u1", couple);
    clearDraft(storage, "u1", "couple_profile");
    expect(loadCoupleDraft(storage, "u1")).toBeNull();
    expect(storage.length).toBe(0);
  });
});
