/** The messaging API's inputs (README "Messages"): pure and browser-safe, the composer's resolver shares them. */
import { z } from "zod";
import { REACTION_KINDS } from "@/db/schema/forum-values";
import { hasVisibleText, multiLine, trimmedString, uuidField } from "@/lib/fields";
import { intParam } from "@/lib/http/query";
import { IMAGE_URL_MAX } from "@/lib/images/rules";
import { CURSOR_MAX } from "@/lib/pagination/page";
import { BODY_MAX, MESSAGE_TEXTS, THREAD_PAGE_DEFAULT, THREAD_PAGE_MAX } from "./rules";

/** Line breaks kept ("\r\n" from a form becomes "\n"), the ends trimmed, length checked before the characters. */
const bodyField = z.preprocess(
  // "\r\n" at most halves a text: longer than twice the limit cannot fit and is not rewritten (length before pattern).
  (value) => (typeof value === "string" && value.length <= 2 * BODY_MAX ? value.replace(/\r\n?/g, "\n") : value),
  multiLine(
    trimmedString(BODY_MAX, MESSAGE_TEXTS.bodyTooLong, MESSAGE_TEXTS.bodyRequired)
      .min(1, MESSAGE_TEXTS.bodyRequired)
      .refine(hasVisibleText, MESSAGE_TEXTS.bodyRequired),
    MESSAGE_TEXTS.bodyNotAllowed,
  ),
);

/** `POST /api/conversations/{id}/messages`; the server checks the photo is the author's own unused upload. */
export const sendMessageSchema = z.object({
  body: bodyField,
  photoUrl: z
    .string({ error: MESSAGE_TEXTS.photoInvalid })
    .min(1, MESSAGE_TEXTS.photoInvalid)
    .max(IMAGE_URL_MAX, MESSAGE_TEXTS.photoInvalid)
    .nullish()
    .transform((url) => url ?? null),
  /** The message this one answers, in the same conversation (checked by the server). */
  replyToId: uuidField(MESSAGE_TEXTS.replyToInvalid)
    .nullish()
    .transform((id) => id ?? null),
  /** The composer's key for this message: sent again with it, its answer lost, the message is not sent twice. */
  clientKey: uuidField(MESSAGE_TEXTS.clientKeyInvalid)
    .nullish()
    .transform((key) => key ?? null),
});
export type SendMessageInput = z.output<typeof sendMessageSchema>;

/** What a stored message draft must parse as (lib/messages/client/drafts.ts); a field that does not parse is dropped. */
export const messageDraftSchema = z.object({ body: z.string().catch("") });

/** `PATCH /api/messages/{id}`: new words, within the edit window. */
export const editMessageSchema = z.object({ body: bodyField });

/** `PUT` / `DELETE /api/messages/{id}/reactions/{kind}`: one of the forum's five reactions. */
export const messageReactionParamsSchema = z.object({
  id: uuidField(MESSAGE_TEXTS.messageIdInvalid),
  kind: z.enum(REACTION_KINDS, { error: MESSAGE_TEXTS.reactionInvalid }),
});

/** `GET /api/conversations/{id}/messages?before=&limit=`. */
export const threadQuerySchema = z.object({
  before: uuidField(MESSAGE_TEXTS.beforeInvalid).optional(),
  limit: intParam("limit", 1, THREAD_PAGE_MAX, THREAD_PAGE_DEFAULT),
});
export type ThreadQuery = z.output<typeof threadQuerySchema>;

/** `GET /api/conversations?cursor=`. */
export const inboxQuerySchema = z.object({
  cursor: z.string({ error: MESSAGE_TEXTS.cursorInvalid }).max(CURSOR_MAX, MESSAGE_TEXTS.cursorInvalid).optional(),
});
export type InboxQuery = z.output<typeof inboxQuerySchema>;

/** `POST /api/conversations/{id}/read`. */
export const readSchema = z.object({ upTo: uuidField(MESSAGE_TEXTS.upToRequired) });

export const conversationParamsSchema = z.object({ id: uuidField(MESSAGE_TEXTS.idInvalid) });
export const messageParamsSchema = z.object({ id: uuidField(MESSAGE_TEXTS.messageIdInvalid) });
