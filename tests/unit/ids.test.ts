import { describe, expect, it } from "vitest";
import { sendRequestSchema } from "@/lib/connections/schemas";
import { canonicalId, uuidField } from "@/lib/fields";
import { forumIdParamsSchema, reactionParamsSchema } from "@/lib/forum/schemas";
import { conversationParamsSchema } from "@/lib/messages/schemas";
import { idParamsSchema } from "@/lib/safety/moderation-schemas";

const ID = "0b9c1e8e-3a0b-4c6b-9f6e-1c2d3e4f5a6b";
const SHOUTED = ID.toUpperCase();

describe("ids have one spelling", () => {
  it("uuidField lower-cases a uuid and refuses anything else with its message", () => {
    expect(uuidField("bad id").parse(SHOUTED)).toBe(ID);
    expect(uuidField("bad id").safeParse("nope").error?.issues[0]?.message).toBe("bad id");
  });

  it("every id a call takes is lower-cased: a couple's, a post's, a conversation's, a report's", () => {
    expect(forumIdParamsSchema.parse({ id: SHOUTED }).id).toBe(ID);
    expect(reactionParamsSchema.parse({ id: SHOUTED, kind: "heart" }).id).toBe(ID);
    expect(conversationParamsSchema.parse({ id: SHOUTED }).id).toBe(ID);
    expect(idParamsSchema.parse({ id: SHOUTED }).id).toBe(ID);
    expect(sendRequestSchema.parse({ coupleId: SHOUTED, note: "Hi there, coffee?" }).coupleId).toBe(ID);
  });

  it("canonicalId gives a page's id lower-cased, or null when it is no uuid", () => {
    expect(canonicalId(SHOUTED)).toBe(ID);
    expect(canonicalId(ID)).toBe(ID);
    expect(canonicalId("not-an-id")).toBeNull();
    expect(canonicalId(`${ID}x`)).toBeNull();
  });
});
