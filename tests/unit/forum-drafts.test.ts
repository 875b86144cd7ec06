import { describe, expect, it } from "vitest";
import { postDraft, replyDraft, type PostDraft } from "@/lib/forum/client/drafts";
import { clearDraft, draftKey, hasDraft } from "@/lib/forms/draft-store";
import { MemoryStorage } from "../support/memory-storage";

const post: PostDraft = {
  title: "Weekend in Sintra",
  topic: "travel",
  body: "Who wants to join @Marisol & Thaddeus?",
  scope: "local",
  photos: ["/api/images/forum/0001.jpg"],
  mentions: [{ coupleId: "6f1c1d7e-55f1-4a43-9a4f-4ea1c49b8a11", name: "Marisol & Thaddeus" }],
};

describe("forum drafts (the onboarding draft store, per user and form)", () => {
  it("keeps the composer's draft per user", async () => {
    const storage = new MemoryStorage();
    postDraft.saveText(storage, "u1", post);
    expect(await postDraft.load(storage, "u1")).toEqual(post);
    expect(await postDraft.load(storage, "u2")).toBeNull();
    expect(storage.getItem(draftKey("u1", "forum_post"))).not.toBeNull();
  });

  it("keeps one reply draft per post, cleared on its own", async () => {
    const storage = new MemoryStorage();
    replyDraft("p1").saveText(storage, "u1", { body: "Count us in", mentions: [] });
    replyDraft("p2").saveText(storage, "u1", { body: "Not this one", mentions: [] });
    clearDraft(storage, "u1", "forum_reply:p1");
    expect(await replyDraft("p1").load(storage, "u1")).toBeNull();
    expect(await replyDraft("p2").load(storage, "u1")).toEqual({ body: "Not this one", mentions: [] });
  });

  it("drops fields that no longer parse (a topic renamed since) and keeps the rest", async () => {
    const storage = new MemoryStorage();
    storage.setItem(draftKey("u1", "forum_post"), JSON.stringify({ ...post, topic: "gossip", scope: 7 }));
    expect(await postDraft.load(storage, "u1")).toEqual({ ...post, topic: "", scope: "global" });
  });

  it("says whether a reply draft is kept, per user and post, without its schema (the thread's light form loads the full one for it)", () => {
    const storage = new MemoryStorage();
    expect(hasDraft(storage, "u1", "forum_reply:p1")).toBe(false);
    replyDraft("p1").saveText(storage, "u1", { body: "Count us in", mentions: [] });
    expect(hasDraft(storage, "u1", "forum_reply:p1")).toBe(true);
    expect(hasDraft(storage, "u2", "forum_reply:p1")).toBe(false);
    expect(hasDraft(storage, "u1", "forum_reply:p2")).toBe(false);
    // Kept but unreadable (not JSON), or no storage at all: none.
    storage.setItem(draftKey("u1", "forum_reply:p2"), "{not json");
    expect(hasDraft(storage, "u1", "forum_reply:p2")).toBe(false);
    expect(hasDraft(null, "u1", "forum_reply:p1")).toBe(false);
    clearDraft(storage, "u1", "forum_reply:p1");
    expect(hasDraft(storage, "u1", "forum_reply:p1")).toBe(false);
  });
});
