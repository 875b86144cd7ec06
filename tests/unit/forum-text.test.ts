import { describe, expect, it } from "vitest";
import { insertMention, listedPost, mentionedIds, mentionQueryAt } from "@/lib/forum/text";
import type { ForumPost } from "@/lib/forum/queries";
import { excerpt, renderBody } from "@/lib/plain-text";

const MAYA = { coupleId: "c-maya", name: "Maya & Theo" };

describe("mentionedIds", () => {
  const ANA = { coupleId: "c-ana", name: "Ana" };
  const ANA_RUI = { coupleId: "c-ana-rui", name: "Ana & Rui" };

  it("keeps the couples the words mention as they show them linked: an '@name' that ends a word", () => {
    expect(mentionedIds("Hello @ana, and @Maya & Theo!", [ANA, MAYA])).toEqual(["c-ana", "c-maya"]);
    expect(
      renderBody("Hello @ana, and @Maya & Theo!", [ANA, MAYA])
        .flat(2)
        .filter((s) => s.kind === "mention"),
    ).toHaveLength(2);
  });

  it("drops a couple whose '@name' the words hold only inside a longer name, a word or an address, which show no link to it", () => {
    expect(mentionedIds("Hello @Anabelle", [ANA])).toEqual([]);
    expect(mentionedIds("Hello @Ana & Rui", [ANA, ANA_RUI])).toEqual(["c-ana-rui"]);
    expect(mentionedIds("Write to me@Ana or see https://example.com/@Ana", [ANA])).toEqual([]);
    for (const body of ["Hello @Anabelle", "Hello @Ana & Rui", "Write to me@Ana or see https://example.com/@Ana"])
      expect(
        renderBody(body, [ANA, ANA_RUI])
          .flat(2)
          .filter((s) => s.kind === "mention" && s.coupleId === "c-ana"),
      ).toEqual([]);
  });
});

describe("mentionQueryAt", () => {
  it("offers suggestions once '@' is followed by two letters at the caret", () => {
    expect(mentionQueryAt("Hello @M", 8)).toBeNull();
    expect(mentionQueryAt("Hello @Ma", 9)).toEqual({ query: "Ma", start: 6 });
    expect(mentionQueryAt("@Zoë", 4)).toEqual({ query: "Zoë", start: 0 });
    expect(mentionQueryAt("Hi @Maya and more", 8)).toEqual({ query: "Maya", start: 3 });
  });

  it("keeps the query open through digits and spaces, as couple names hold them", () => {
    expect(mentionQueryAt("@Ada3z1w", 8)).toEqual({ query: "Ada3z1w", start: 0 });
    expect(mentionQueryAt("@Ada3z1w & C", 12)).toEqual({ query: "Ada3z1w & C", start: 0 });
    expect(mentionQueryAt("Hi @Maya ", 9)).toEqual({ query: "Maya ", start: 3 });
    expect(mentionQueryAt("@12", 3)).toEqual({ query: "12", start: 0 });
  });

  it("reads only the last 51 characters before the caret, and never across a line", () => {
    const long = `@Ma${"x".repeat(60)}`;
    expect(mentionQueryAt(long, long.length)).toBeNull();
    expect(mentionQueryAt("@Maya\nhi", 8)).toBeNull();
    expect(mentionQueryAt(`${"a ".repeat(5000)}@Maya`, 10005)).toEqual({ query: "Maya", start: 10000 });
  });

  it("answers null when the caret is not in a mention", () => {
    expect(mentionQueryAt("Hello @Ma\nthere", 15)).toBeNull();
    expect(mentionQueryAt("write ana@example", 17)).toBeNull();
    expect(mentionQueryAt("@1", 2)).toBeNull();
    expect(mentionQueryAt("@ Ma", 4)).toBeNull();
    expect(mentionQueryAt("no at sign", 5)).toBeNull();
    expect(mentionQueryAt("@Ma", 0)).toBeNull();
    expect(mentionQueryAt("@Ma", 99)).toBeNull();
  });
});

describe("insertMention", () => {
  it("replaces the query by the couple's name and a space, caret after it", () => {
    expect(insertMention("Hi @Ma", 3, 6, "Maya & Theo")).toEqual({ text: "Hi @Maya & Theo ", caret: 16 });
  });

  it("keeps the text after the caret and does not double a space", () => {
    expect(insertMention("Hi @Ma see you", 3, 6, "Maya & Theo")).toEqual({ text: "Hi @Maya & Theo see you", caret: 16 });
    expect(insertMention("@Ma,", 0, 3, "Maya & Theo")).toEqual({ text: "@Maya & Theo ,", caret: 13 });
  });

  it("inserts what renderBody then recognises", () => {
    const { text } = insertMention("Thanks @Ma", 7, 10, MAYA.name);
    expect(renderBody(text, [MAYA])[0]![0]).toContainEqual({ kind: "mention", coupleId: "c-maya", label: "@Maya & Theo" });
  });
});

describe("listedPost", () => {
  const author = {
    userId: "u-1",
    firstName: "Maya",
    coupleId: "c-maya",
    coupleName: "Maya & Theo",
    coupleImageUrl: "/api/images/couple-main/m.jpg",
    isVerified: true,
    signature: "Maya of Maya & Theo",
    profileShown: true,
  };
  const body = `${"Sunrise walk along the river. ".repeat(300)}The last words.`;
  const post: ForumPost = {
    id: "p-1",
    title: "Walks",
    body,
    topic: "outdoors",
    scope: "global",
    photos: ["/api/images/forum/p.jpg"],
    author,
    place: "Lisbon",
    distanceBand: null,
    replyCount: 2,
    reactions: { heart: 1, laugh: 0, wow: 0, clap: 0, hug: 0 },
    myReactions: ["heart"],
    mentions: [MAYA],
    createdAt: "2026-01-01T10:00:00.000Z",
    editedAt: "2026-01-01T11:00:00.000Z",
    lastActivityAt: "2026-01-02T10:00:00.000Z",
    deleted: false,
    removed: false,
    hidden: false,
  };

  it("is what a list row shows: its excerpt in place of its body, and nothing the row does not show", () => {
    const { excerpt: shown, ...rest } = listedPost(post);
    expect(shown).toBe(excerpt(body));
    expect(shown.length).toBeLessThanOrEqual(201);
    expect(rest).toEqual({
      id: "p-1",
      title: "Walks",
      topic: "outdoors",
      distanceBand: null,
      author: {
        coupleId: "c-maya",
        coupleImageUrl: "/api/images/couple-main/m.jpg",
        isVerified: true,
        signature: "Maya of Maya & Theo",
        profileShown: true,
      },
      replyCount: 2,
      reactions: { heart: 1, laugh: 0, wow: 0, clap: 0, hug: 0 },
      createdAt: "2026-01-01T10:00:00.000Z",
      lastActivityAt: "2026-01-02T10:00:00.000Z",
    });
    expect(JSON.stringify(listedPost(post))).not.toContain("The last words.");
  });
});
