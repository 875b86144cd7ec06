/** The connection API's inputs (README "Messages"): pure and browser-safe, the dialog's resolver shares them. */
import { z } from "zod";
import { hasVisibleText, multiLine, trimmedString, uuidField } from "@/lib/fields";
import { CURSOR_MAX } from "@/lib/pagination/page";
import { CONNECTION_TEXTS, NOTE_MAX } from "./rules";

/** Multi-line text: a form's "\r\n" becomes "\n", the ends are trimmed; length is checked before the characters. */
export const noteField = z.preprocess(
  // "\r\n" at most halves a text: longer than twice the limit cannot fit and is not rewritten (length before pattern).
  (value) => (typeof value === "string" && value.length <= 2 * NOTE_MAX ? value.replace(/\r\n?/g, "\n") : value),
  multiLine(
    trimmedString(NOTE_MAX, CONNECTION_TEXTS.noteTooLong, CONNECTION_TEXTS.noteRequired)
      .min(1, CONNECTION_TEXTS.noteRequired)
      .refine(hasVisibleText, CONNECTION_TEXTS.noteRequired),
    CONNECTION_TEXTS.noteNotAllowed,
  ),
);

/** The 'Say hello' dialog: its note, as the call checks it. */
export const helloFormSchema = z.object({ note: noteField });

/** `POST /api/connections`. */
export const sendRequestSchema = z.object({
  coupleId: uuidField(CONNECTION_TEXTS.coupleIdInvalid),
  note: noteField,
});
export type SendRequestInput = z.output<typeof sendRequestSchema>;

/** `GET /api/connections?box=&cursor=`. */
export const listRequestsSchema = z.object({
  box: z.enum(["incoming", "outgoing"], { error: CONNECTION_TEXTS.boxInvalid }).default("incoming"),
  cursor: z.string({ error: CONNECTION_TEXTS.cursorInvalid }).max(CURSOR_MAX, CONNECTION_TEXTS.cursorInvalid).optional(),
});
export type RequestBox = z.output<typeof listRequestsSchema>["box"];

/** `/api/connections/{id}/accept|decline`. */
export const requestIdParamsSchema = z.object({ id: uuidField(CONNECTION_TEXTS.idInvalid) });

/** `PUT /api/settings/connections`: 'Both of us approve new connections'. */
export const connectionSettingsSchema = z.object({
  bothApprove: z.boolean({ error: "bothApprove must be true or false" }),
});
export type ConnectionSettings = z.output<typeof connectionSettingsSchema>;
