import { describe, expect, it } from "vitest";
import { sendKey } from "@/lib/messages/client/send-key";

const words = { body: "On our way", photoUrl: null, replyToId: null };

describe("the composer's key for a message", () => {
  it("is new for each message sent", () => {
    const first = sendKey(null, words);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(sendKey(null, words)).not.toBe(first);
  });

  it("is the failed one's when the same words, photo and reply are sent again: the server answers the first if it arrived", () => {
    expect(sendKey({ ...words, key: "k-1" }, words)).toBe("k-1");
  });

  it("is new when anything of it changed: other words, a photo, another reply", () => {
    const failed = { ...words, key: "k-1" };
    for (const changed of [
      { ...words, body: "On our way!" },
      { ...words, photoUrl: "/api/messages/photos/a.jpg" },
      { ...words, replyToId: "5b0618cd-8e7e-4b7a-8332-da165dab1b71" },
    ])
      expect(sendKey(failed, changed)).not.toBe("k-1");
  });
});
