import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { BODY_MAX, PHOTOS_MAX, REPLY_BODY_MAX, TITLE_MAX } from "@/lib/forum/rules";
import {
  createPostSchema,
  createReplySchema,
  FORUM_MESSAGES,
  forumIdParamsSchema,
  listPostsQuerySchema,
  patchPostSchema,
  patchReplySchema,
  reactionParamsSchema,
  reportSchema,
} from "@/lib/forum/schemas";

const ID = "3f1c2a9e-5b7d-4e21-9a0b-6c8d7e5f4a3b";
const OTHER = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";

/** The first message per field path of a failed parse: what the API's `fields` answer carries. */
function messages(schema: z.ZodType, value: unknown): Record<string, string> {
  const result = schema.safeParse(value);
  if (result.success) throw new Error(`expected a failure, got ${JSON.stringify(result.data)}`);
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) fields[issue.path.join(".") || "_"] ??= issue.message;
  return fields;
}

const post = { title: "Weekend in Porto", topic: "travel", body: "Any tips?", scope: "global" };

describe("listPostsQuerySchema", () => {
  it("defaults to the global scope, latest first, 20 a page, 50 km", () => {
    expect(listPostsQuerySchema.parse({})).toEqual({ scope: "global", sort: "latest", radius: 50, limit: 20 });
  });

  it("reads query-string values, empty ones as not given", () => {
    expect(
      listPostsQuerySchema.parse({
        scope: "local",
        sort: "nearest",
        topic: "meetups",
        q: "  sunset hike ",
        radius: "25",
        limit: "50",
        cursor: "abc.def",
      }),
    ).toEqual({
      scope: "local",
      sort: "nearest",
      topic: "meetups",
      q: "sunset hike",
      radius: 25,
      limit: 50,
      cursor: "abc.def",
    });
    expect(listPostsQuerySchema.parse({ scope: "", sort: "", topic: "", q: "  ", radius: "", limit: "", cursor: "" })).toEqual(
      listPostsQuerySchema.parse({}),
    );
  });

  it("refuses unknown values with a clear message", () => {
    expect(messages(listPostsQuerySchema, { scope: "galaxy" })).toEqual({ scope: FORUM_MESSAGES.scopeUnknown });
    expect(messages(listPostsQuerySchema, { sort: "hot" })).toEqual({ sort: FORUM_MESSAGES.sortUnknown });
    expect(messages(listPostsQuerySchema, { topic: "politics" })).toEqual({ topic: FORUM_MESSAGES.topicUnknown });
    expect(messages(listPostsQuerySchema, { radius: "30" })).toEqual({ radius: FORUM_MESSAGES.radiusUnknown });
    expect(messages(listPostsQuerySchema, { radius: "far" })).toEqual({ radius: FORUM_MESSAGES.radiusUnknown });
    expect(messages(listPostsQuerySchema, { limit: "51" })).toEqual({ limit: "limit must be between 1 and 50" });
    expect(messages(listPostsQuerySchema, { limit: "0" })).toEqual({ limit: "limit must be between 1 and 50" });
  });

  it("offers the nearest order only in the local forum", () => {
    expect(messages(listPostsQuerySchema, { sort: "nearest" })).toEqual({ sort: FORUM_MESSAGES.sortNeedsLocal });
  });

  it("refuses a search past its length or with control characters, and an overlong cursor", () => {
    expect(messages(listPostsQuerySchema, { q: "a".repeat(201) })).toEqual({ q: FORUM_MESSAGES.searchTooLong });
    expect(messages(listPostsQuerySchema, { q: "a\u0000b" })).toEqual({ q: FORUM_MESSAGES.searchControl });
    expect(messages(listPostsQuerySchema, { cursor: "x".repeat(257) })).toEqual({ cursor: FORUM_MESSAGES.cursorInvalid });
    expect(messages(listPostsQuerySchema, { q: ["a", "b"] })).toEqual({ q: FORUM_MESSAGES.searchInvalid });
  });
});

describe("createPostSchema", () => {
  it("accepts a post, trimming its texts and defaulting photos and mentions", () => {
    expect(createPostSchema.parse({ ...post, title: "  Weekend in Porto ", body: "\n Any tips?\r\n\r\nThanks!\t \n" })).toEqual({
      ...post,
      body: "Any tips?\n\nThanks!",
      photos: [],
      mentions: [],
    });
  });

  it("keeps photos and mentions once each", () => {
    const parsed = createPostSchema.parse({
      ...post,
      photos: ["/api/images/a.jpg", "/api/images/a.jpg"],
      mentions: [ID, ID.toUpperCase(), OTHER],
    });
    expect(parsed.photos).toEqual(["/api/images/a.jpg"]);
    expect(parsed.mentions).toEqual([ID, OTHER]);
  });

  it("names each missing field", () => {
    expect(messages(createPostSchema, {})).toEqual({
      title: FORUM_MESSAGES.titleRequired,
      topic: FORUM_MESSAGES.topicUnknown,
      body: FORUM_MESSAGES.bodyRequired,
      scope: FORUM_MESSAGES.scopeUnknown,
    });
  });

  it("holds the title to 3-150 characters on one line", () => {
    expect(messages(createPostSchema, { ...post, title: "Hi" })).toEqual({ title: FORUM_MESSAGES.titleTooShort });
    expect(messages(createPostSchema, { ...post, title: "   " })).toEqual({ title: FORUM_MESSAGES.titleRequired });
    expect(messages(createPostSchema, { ...post, title: "x".repeat(TITLE_MAX + 1) })).toEqual({ title: FORUM_MESSAGES.titleTooLong });
    expect(createPostSchema.parse({ ...post, title: "x".repeat(TITLE_MAX) }).title).toHaveLength(TITLE_MAX);
    for (const title of ["Two\nlines", "Tab\there", "Bell\u0007", "Line\u2028sep"]) {
      expect(messages(createPostSchema, { ...post, title })).toEqual({ title: FORUM_MESSAGES.titleControl });
    }
  });

  it("holds the body to 1-10,000 characters, allowing only line breaks and tabs", () => {
    expect(messages(createPostSchema, { ...post, body: " \n " })).toEqual({ body: FORUM_MESSAGES.bodyRequired });
    expect(messages(createPostSchema, { ...post, body: "x".repeat(BODY_MAX + 1) })).toEqual({
      body: "Your post must be no more than 10,000 characters",
    });
    expect(createPostSchema.parse({ ...post, body: "x".repeat(BODY_MAX) }).body).toHaveLength(BODY_MAX);
    expect(createPostSchema.parse({ ...post, body: "a\tb\nc" }).body).toBe("a\tb\nc");
    for (const body of ["a\u0000b", "a\u001bb", "a\u2029b", "a\u007fb"]) {
      expect(messages(createPostSchema, { ...post, body })).toEqual({ body: FORUM_MESSAGES.textControl });
    }
  });

  it("refuses wrong types, unknown topics and scopes, too many photos or mentions", () => {
    expect(messages(createPostSchema, { ...post, title: 42 })).toEqual({ title: FORUM_MESSAGES.titleRequired });
    expect(messages(createPostSchema, { ...post, topic: "politics" })).toEqual({ topic: FORUM_MESSAGES.topicUnknown });
    expect(messages(createPostSchema, { ...post, scope: "planet" })).toEqual({ scope: FORUM_MESSAGES.scopeUnknown });
    expect(messages(createPostSchema, { ...post, photos: Array.from({ length: PHOTOS_MAX + 1 }, (_, i) => `/p/${i}.jpg`) })).toEqual({
      photos: FORUM_MESSAGES.tooManyPhotos,
    });
    expect(messages(createPostSchema, { ...post, photos: "a.jpg" })).toEqual({ photos: FORUM_MESSAGES.photoInvalid });
    expect(messages(createPostSchema, { ...post, photos: [""] })).toEqual({ "photos.0": FORUM_MESSAGES.photoInvalid });
    expect(messages(createPostSchema, { ...post, mentions: ["marisol"] })).toEqual({ "mentions.0": FORUM_MESSAGES.mentionsInvalid });
    expect(messages(createPostSchema, { ...post, mentions: Array.from({ length: 21 }, () => ID) })).toEqual({
      mentions: FORUM_MESSAGES.tooManyMentions,
    });
  });
});

describe("patchPostSchema", () => {
  it("takes any editable field", () => {
    expect(patchPostSchema.parse({ body: "Updated" })).toEqual({ body: "Updated" });
    expect(patchPostSchema.parse({ title: "New title", topic: "wellness" })).toEqual({ title: "New title", topic: "wellness" });
  });

  it("refuses an empty patch and a change of scope", () => {
    expect(messages(patchPostSchema, {})).toEqual({ _: FORUM_MESSAGES.nothingToUpdate });
    expect(messages(patchPostSchema, { body: "x", scope: "local" })).toEqual({ scope: FORUM_MESSAGES.scopeFixed });
  });

  it("holds edited fields to the same rules as new ones", () => {
    expect(messages(patchPostSchema, { title: "x" })).toEqual({ title: FORUM_MESSAGES.titleTooShort });
  });
});

describe("replies", () => {
  it("accepts a reply with a quoted reply and mentions", () => {
    expect(createReplySchema.parse({ body: " Count us in! ", quoteReplyId: ID, mentions: [OTHER] })).toEqual({
      body: "Count us in!",
      quoteReplyId: ID,
      mentions: [OTHER],
    });
    expect(createReplySchema.parse({ body: "Yes" })).toEqual({ body: "Yes", mentions: [] });
  });

  it("holds the body to 1-5,000 characters and the quote to a reply id", () => {
    expect(messages(createReplySchema, {})).toEqual({ body: FORUM_MESSAGES.replyRequired });
    expect(messages(createReplySchema, { body: "x".repeat(REPLY_BODY_MAX + 1) })).toEqual({
      body: "Your reply must be no more than 5,000 characters",
    });
    expect(createReplySchema.parse({ body: "x".repeat(REPLY_BODY_MAX) }).body).toHaveLength(REPLY_BODY_MAX);
    expect(messages(createReplySchema, { body: "ok", quoteReplyId: "r1" })).toEqual({ quoteReplyId: FORUM_MESSAGES.quoteInvalid });
  });

  it("edits a reply's body by the same rules", () => {
    expect(patchReplySchema.parse({ body: "Fixed" })).toEqual({ body: "Fixed" });
    expect(messages(patchReplySchema, { body: "" })).toEqual({ body: FORUM_MESSAGES.replyRequired });
  });
});

describe("reportSchema", () => {
  it("accepts a report, an empty note being no note", () => {
    expect(reportSchema.parse({ targetType: "reply", targetId: ID, reason: "spam", note: "" })).toEqual({
      targetType: "reply",
      targetId: ID,
      reason: "spam",
    });
    expect(reportSchema.parse({ targetType: "couple", targetId: ID, reason: "other", note: null })).toEqual({
      targetType: "couple",
      targetId: ID,
      reason: "other",
    });
    expect(reportSchema.parse({ targetType: "post", targetId: ID, reason: "harassment", note: " Twice\nnow " }).note).toBe("Twice\nnow");
  });

  it("refuses unknown targets and reasons, a bad id and an overlong note", () => {
    expect(messages(reportSchema, { targetType: "event", targetId: "x", reason: "rude", note: "n".repeat(1001) })).toEqual({
      targetType: FORUM_MESSAGES.targetTypeUnknown,
      targetId: FORUM_MESSAGES.targetIdInvalid,
      reason: FORUM_MESSAGES.reasonUnknown,
      note: FORUM_MESSAGES.noteTooLong,
    });
    expect(messages(reportSchema, { targetType: "post", targetId: ID, reason: "spam", note: 7 })).toEqual({
      note: FORUM_MESSAGES.noteInvalid,
    });
  });
});

describe("route params", () => {
  it("reads a forum id and a reaction kind", () => {
    expect(forumIdParamsSchema.parse({ id: ID })).toEqual({ id: ID });
    expect(reactionParamsSchema.parse({ id: ID, kind: "hug" })).toEqual({ id: ID, kind: "hug" });
  });

  it("refuses an unknown reaction and an id that is not one", () => {
    expect(messages(reactionParamsSchema, { id: ID, kind: "angry" })).toEqual({
      kind: "Unknown reaction: use heart, laugh, wow, clap, hug",
    });
    expect(messages(forumIdParamsSchema, { id: "%ff" })).toEqual({ id: FORUM_MESSAGES.idInvalid });
  });
});
