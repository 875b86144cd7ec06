/**
 * The forum API's inputs (the README's forum API section), shared by the composer's resolver and the
 * server. Pure and browser-safe. Keys are listed in the order a person meets the fields, so the
 * first issue is the message they see first. What only the server can judge (whose photos,
 * which couples may be mentioned, a cursor's signature) is checked there.
 */
import { z } from "zod";
import { trimmedString, CONTROL_CHARACTER, hasVisibleText, isOneLine, uuidField } from "@/lib/fields";
import { fromQueryString, intParam } from "@/lib/http/query";
import { IMAGE_URL_REFUSED_MESSAGE } from "@/lib/images/rules";
import { CURSOR_MAX } from "@/lib/pagination/page";
import { MODERATION_ACTIONS } from "@/lib/safety/rules";
import { mentionedIds, type ForumMention } from "./text";
import {
  BODY_MAX,
  BODY_MIN,
  DEFAULT_LOCAL_RADIUS_KM,
  DEFAULT_SORT,
  LOCAL_ONLY_SORTS,
  LOCAL_RADII_KM,
  MENTIONS_MAX,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  PHOTOS_MAX,
  REACTION_KINDS,
  type ForumScope,
  type ForumTopic,
  REPLIES_PAGE_DEFAULT,
  REPLIES_PAGE_MAX,
  REPLY_BODY_MAX,
  REPLY_BODY_MIN,
  REPORT_NOTE_MAX,
  REPORT_REASON_VALUES,
  REPORT_TARGET_TYPES,
  SCOPE_VALUES,
  SEARCH_QUERY_MAX,
  MENTION_QUERY_MAX,
  SORT_VALUES,
  TITLE_MAX,
  TITLE_MIN,
  TOPIC_VALUES,
} from "./rules";

const thousands = (n: number) => n.toLocaleString("en-US");
/** Long enough for any URL this app's storage hands out. */
const PHOTO_URL_MAX = 2048;

export const FORUM_MESSAGES = {
  titleRequired: "Please enter a title",
  titleTooShort: `Title must be at least ${TITLE_MIN} characters`,
  titleTooLong: `Title must be no more than ${TITLE_MAX} characters`,
  titleControl: "Title cannot contain line breaks or control characters",
  bodyRequired: "Please write your post",
  bodyTooLong: `Your post must be no more than ${thousands(BODY_MAX)} characters`,
  replyRequired: "Please write a reply",
  replyTooLong: `Your reply must be no more than ${thousands(REPLY_BODY_MAX)} characters`,
  textControl: "Text cannot contain control characters (line breaks and tabs are fine)",
  topicUnknown: "Please choose a topic from the list",
  scopeUnknown: "Scope must be global or local",
  scopeFixed: "The scope of a post cannot be changed: delete it and post again",
  sortUnknown: `sort must be one of ${SORT_VALUES.join(", ")}`,
  sortNeedsLocal: "sort=nearest is only for the local forum (scope=local)",
  radiusUnknown: `radius must be one of ${LOCAL_RADII_KM.join(", ")} (km)`,
  searchTooLong: `Search must be no more than ${SEARCH_QUERY_MAX} characters`,
  mentionTooLong: `A couple's name to mention must be no more than ${MENTION_QUERY_MAX} characters`,
  searchInvalid: "Search must be text",
  searchControl: "Search cannot contain control characters",
  cursorInvalid: "cursor is not valid: start again from the first page",
  tooManyPhotos: `You can add up to ${PHOTOS_MAX} photos`,
  photoInvalid: IMAGE_URL_REFUSED_MESSAGE,
  mentionsInvalid: "mentions must be a list of couple ids",
  tooManyMentions: `You can mention up to ${MENTIONS_MAX} couples`,
  quoteInvalid: "quoteReplyId must be the id of a reply",
  nothingToUpdate: "Nothing to update",
  reactionUnknown: `Unknown reaction: use ${REACTION_KINDS.join(", ")}`,
  idInvalid: "id must be a UUID",
  targetTypeUnknown: `targetType must be one of ${REPORT_TARGET_TYPES.join(", ")}`,
  targetIdInvalid: "targetId must be a UUID",
  reasonUnknown: "Please choose a reason",
  noteInvalid: "The note must be text",
  noteTooLong: `The note must be no more than ${thousands(REPORT_NOTE_MAX)} characters`,
} as const;

/** One-line text: trimmed, within its length, no control character at all. */
const lineText = (min: number, max: number, m: { required: string; tooShort: string; tooLong: string; control: string }) =>
  trimmedString(max, m.tooLong, m.required)
    .min(1, m.required)
    .min(min, m.tooShort)
    // One line, as every name and title: no control or bidirectional override, something that shows.
    .refine(isOneLine, m.control);

/**
 * Multi-line text: Windows line ends become "\n" (a form posts "\r\n"), the ends are trimmed,
 * and line breaks and tabs are the only control characters kept. Lengths count UTF-16 units,
 * as the textarea's live counter does.
 */
const multiLineText = (min: number, max: number, m: { required: string; tooLong: string }) =>
  z.preprocess(
    // "\r\n" at most halves a text: longer than twice the limit cannot fit and is not rewritten.
    (value) => (typeof value === "string" && value.length <= 2 * max ? value.replace(/\r\n?/g, "\n") : value),
    trimmedString(max, m.tooLong, m.required)
      .min(min, m.required)
      .refine(hasVisibleText, m.required)
      .refine((text) => !CONTROL_CHARACTER.test(text.replace(/[\n\t]/g, "")), FORUM_MESSAGES.textControl),
  );

const titleField = lineText(TITLE_MIN, TITLE_MAX, {
  required: FORUM_MESSAGES.titleRequired,
  tooShort: FORUM_MESSAGES.titleTooShort,
  tooLong: FORUM_MESSAGES.titleTooLong,
  control: FORUM_MESSAGES.titleControl,
});
const postBodyField = multiLineText(BODY_MIN, BODY_MAX, { required: FORUM_MESSAGES.bodyRequired, tooLong: FORUM_MESSAGES.bodyTooLong });
const replyBodyField = multiLineText(REPLY_BODY_MIN, REPLY_BODY_MAX, {
  required: FORUM_MESSAGES.replyRequired,
  tooLong: FORUM_MESSAGES.replyTooLong,
});
const topicField = z.enum(TOPIC_VALUES, { error: FORUM_MESSAGES.topicUnknown });
const scopeField = z.enum(SCOPE_VALUES, { error: FORUM_MESSAGES.scopeUnknown });

/** Upload URLs from `POST /api/forum/photos`, once each; the server checks they are the caller's. */
const photosField = z
  .array(trimmedString(PHOTO_URL_MAX, FORUM_MESSAGES.photoInvalid).min(1, FORUM_MESSAGES.photoInvalid), {
    error: FORUM_MESSAGES.photoInvalid,
  })
  .max(PHOTOS_MAX, FORUM_MESSAGES.tooManyPhotos)
  .transform((urls) => [...new Set(urls)]);

/** Couple ids, once each; the server keeps only couples the text names and the author may mention, and refuses blocked ones. */
const mentionsField = z
  .array(uuidField(FORUM_MESSAGES.mentionsInvalid), { error: FORUM_MESSAGES.mentionsInvalid })
  .max(MENTIONS_MAX, FORUM_MESSAGES.tooManyMentions)
  .transform((ids) => [...new Set(ids)]);

/** Query strings send "" for an empty field: that is "not given". */
const emptyAsMissing = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

/** `GET /api/forum/posts`: the radius matters only in the local scope, where it defaults to 50 km. */
export const listPostsQuerySchema = z
  .object({
    scope: z.preprocess(emptyAsMissing, scopeField.default("global")),
    sort: z.preprocess(emptyAsMissing, z.enum(SORT_VALUES, { error: FORUM_MESSAGES.sortUnknown }).default(DEFAULT_SORT)),
    topic: z.preprocess(emptyAsMissing, topicField.optional()),
    q: z.preprocess(
      emptyAsMissing,
      trimmedString(SEARCH_QUERY_MAX, FORUM_MESSAGES.searchTooLong, FORUM_MESSAGES.searchInvalid)
        .refine((q) => !CONTROL_CHARACTER.test(q), FORUM_MESSAGES.searchControl)
        .optional(),
    ),
    radius: z.preprocess(
      fromQueryString,
      z
        .number({ error: FORUM_MESSAGES.radiusUnknown })
        .refine((km) => (LOCAL_RADII_KM as readonly number[]).includes(km), FORUM_MESSAGES.radiusUnknown)
        .default(DEFAULT_LOCAL_RADIUS_KM),
    ),
    // Only bounded here: the route verifies its signature (lib/pagination/cursor.ts) and answers 400.
    cursor: z.preprocess(
      emptyAsMissing,
      z.string({ error: FORUM_MESSAGES.cursorInvalid }).max(CURSOR_MAX, FORUM_MESSAGES.cursorInvalid).optional(),
    ),
    limit: intParam("limit", 1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
  })
  .superRefine((query, ctx) => {
    if (query.scope !== "local" && LOCAL_ONLY_SORTS.includes(query.sort))
      ctx.addIssue({ code: "custom", path: ["sort"], message: FORUM_MESSAGES.sortNeedsLocal });
  });
export type ListPostsQuery = z.output<typeof listPostsQuerySchema>;

/** `POST /api/forum/posts`. */
export const createPostSchema = z.object({
  title: titleField,
  topic: topicField,
  body: postBodyField,
  photos: photosField.default([]),
  scope: scopeField,
  mentions: mentionsField.default([]),
});
export type CreatePostInput = z.output<typeof createPostSchema>;

/**
 * `PATCH /api/forum/posts/{id}`: any of the editable fields, at least one. The scope is fixed
 * (a local post keeps the place it was posted from), so sending one is refused, not ignored.
 */
export const patchPostSchema = z
  .object({
    title: titleField.optional(),
    topic: topicField.optional(),
    body: postBodyField.optional(),
    photos: photosField.optional(),
    mentions: mentionsField.optional(),
    scope: z.never({ error: FORUM_MESSAGES.scopeFixed }).optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), FORUM_MESSAGES.nothingToUpdate)
  .transform(({ scope: _scope, ...patch }) => patch);
export type PatchPostInput = z.output<typeof patchPostSchema>;

/** `POST /api/forum/posts/{id}/replies`: a reply may quote one reply of the same post (checked by the server). */
export const createReplySchema = z.object({
  body: replyBodyField,
  quoteReplyId: uuidField(FORUM_MESSAGES.quoteInvalid).optional(),
  mentions: mentionsField.default([]),
});
export type CreateReplyInput = z.output<typeof createReplySchema>;

/** `PATCH /api/forum/replies/{id}`: the body, and the mentions it now carries. */
export const patchReplySchema = z.object({
  body: replyBodyField,
  mentions: mentionsField.optional(),
});
export type PatchReplyInput = z.output<typeof patchReplySchema>;

/**
 * The composers' and editors' values: the text as typed and the couples picked after '@' (with
 * the name the text carries). Checked as the call is, after the mentions still named in the text
 * became the call's ids, so each field shows the call's own message.
 */
type FormValues<T> = T & { body: string; mentions: ForumMention[] };
const asCall = <T>(values: FormValues<T>): unknown => ({ ...values, mentions: mentionedIds(values.body, values.mentions) });

export type PostFormValues = FormValues<{ title: string; topic: ForumTopic | ""; scope: ForumScope; photos: string[] }>;
export const postFormSchema = z.custom<PostFormValues>().transform(asCall).pipe(createPostSchema);

export type PostEditValues = FormValues<{ title: string; topic: ForumTopic | "" }>;
export const postEditSchema = z.custom<PostEditValues>().transform(asCall).pipe(patchPostSchema);

export type ReplyFormValues = FormValues<object>;
export const replyFormSchema = z.custom<ReplyFormValues>().transform(asCall).pipe(createReplySchema);
export const replyEditSchema = z.custom<ReplyFormValues>().transform(asCall).pipe(patchReplySchema);

/** `POST /api/reports` (filed by lib/safety/reports.ts): an empty note is no note. */
export const reportSchema = z.object({
  targetType: z.enum(REPORT_TARGET_TYPES, { error: FORUM_MESSAGES.targetTypeUnknown }),
  targetId: uuidField(FORUM_MESSAGES.targetIdInvalid),
  reason: z.enum(REPORT_REASON_VALUES, { error: FORUM_MESSAGES.reasonUnknown }),
  note: z.preprocess(
    (value) => emptyAsMissing(value ?? undefined),
    multiLineText(1, REPORT_NOTE_MAX, { required: FORUM_MESSAGES.noteInvalid, tooLong: FORUM_MESSAGES.noteTooLong }).optional(),
  ),
});
export type ReportInput = z.output<typeof reportSchema>;

/** The 'Report' dialog: a reason must be chosen; the note is the call's to check (the field stops at its limit). */
export const reportFormSchema = z.object({
  reason: z.enum(REPORT_REASON_VALUES, { error: "Please choose a reason" }),
  note: z.string(),
});

/** The `{id}` of `/api/forum/posts/{id}` and `/api/forum/replies/{id}`. */
export const forumIdParamsSchema = z.object({ id: uuidField(FORUM_MESSAGES.idInvalid) });

/** `PUT|DELETE /api/forum/{posts|replies}/{id}/reactions/{kind}`. */
export const reactionParamsSchema = forumIdParamsSchema.extend({ kind: z.enum(REACTION_KINDS, { error: FORUM_MESSAGES.reactionUnknown }) });
export type ReactionParams = z.output<typeof reactionParamsSchema>;

/** `GET /api/forum/posts/{id}`: a page of its replies, oldest first, after `cursor`. */
export const threadQuerySchema = z.object({
  cursor: z.preprocess(
    emptyAsMissing,
    z.string({ error: FORUM_MESSAGES.cursorInvalid }).max(CURSOR_MAX, FORUM_MESSAGES.cursorInvalid).optional(),
  ),
  limit: intParam("limit", 1, REPLIES_PAGE_MAX, REPLIES_PAGE_DEFAULT),
});
export type ThreadQuery = z.output<typeof threadQuerySchema>;

/** `GET /api/forum/mentions?q=`: the composer's couple suggestions after '@' and two letters. */
export const mentionSearchSchema = z.object({
  q: trimmedString(MENTION_QUERY_MAX, FORUM_MESSAGES.mentionTooLong, FORUM_MESSAGES.searchInvalid).min(2, "Type at least 2 letters"),
});

/** `POST /api/moderation/reports/{id}/{dismiss|remove}`. */
export const moderationParamsSchema = forumIdParamsSchema.extend({
  action: z.enum(MODERATION_ACTIONS, { error: "action must be dismiss or remove" }),
});
