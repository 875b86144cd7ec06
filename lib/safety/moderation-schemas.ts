import { z } from "zod";
import { emailSchema, signInSchema } from "@/lib/auth/schemas";
import { TEAM_ROLES } from "@/lib/membership/roles";
import { boundedString, multiLine, uuidField } from "@/lib/fields";
import { cursorPageSchema } from "@/lib/pagination/schemas";
import { HELD_DECISIONS } from "./spam-rules";
import { APPEAL_MAX, GUIDELINE_KEYS, LOG_ACTIONS, MODERATION_NOTE_MAX, RESTRICT_DAYS, SANCTION_KINDS } from "./rules";

/**
 * What moderators and appealing couples send (the API's bodies and query strings, and the forms'
 * resolvers). Pure and browser-safe.
 */

const emptyAsMissing = (value: unknown) => (value === "" ? undefined : value);

/** `GET /api/moderation/log?moderator=&couple=&action=&cursor=`. */
export const logQuerySchema = z.object({
  moderator: z.preprocess(emptyAsMissing, uuidField("moderator must be a person's id").optional()),
  couple: z.preprocess(emptyAsMissing, uuidField("couple must be a couple's id").optional()),
  action: z.preprocess(emptyAsMissing, z.enum(LOG_ACTIONS, { error: "Unknown action" }).optional()),
  cursor: cursorPageSchema.shape.cursor,
});
export type LogQuery = z.output<typeof logQuerySchema>;

const note = multiLine(
  boundedString(MODERATION_NOTE_MAX, `A note holds at most ${MODERATION_NOTE_MAX} characters`).trim(),
  "The note contains characters that are not allowed",
);

/** `POST /api/moderation/couples/{id}/actions`: what the moderator does, why (a guideline), and a note for the record. */
export const sanctionSchema = z
  .object({
    kind: z.enum(SANCTION_KINDS, { error: "Choose warn, restrict, suspend or ban" }),
    reason: z.enum(GUIDELINE_KEYS, { error: "Choose the guideline that was broken" }),
    days: z.coerce
      .number()
      .pipe(
        z.union(
          RESTRICT_DAYS.map((days) => z.literal(days)),
          { error: "Restrict for 1, 7 or 30 days" },
        ),
      )
      .optional(),
    // A note left empty (the form sends its blank textarea) is no note: stored and compared as none (sameActionJustTaken).
    note: note.transform((value) => value || undefined).optional(),
    reportId: uuidField("reportId must be a report's id").optional(),
  })
  .refine((input) => input.kind !== "restrict" || input.days !== undefined, { message: "Restrict for 1, 7 or 30 days", path: ["days"] })
  // Only a restriction lasts some days: a length sent with another action (the form keeps the one chosen
  // before its kind changed) is no part of it, never logged as if that action ended.
  .transform((input): typeof input => (input.kind === "restrict" ? input : { ...input, days: undefined }));
export type SanctionInput = z.output<typeof sanctionSchema>;

/** `POST /api/moderation/sanctions/{id}/lift`: lifted with a reason. */
export const liftSchema = z.object({
  reason: multiLine(
    boundedString(MODERATION_NOTE_MAX, `A reason holds at most ${MODERATION_NOTE_MAX} characters`).trim().min(1, "Say why it is lifted"),
    "The reason contains characters that are not allowed",
  ),
});

/** `POST /api/moderation/appeals`: one appeal per action, 1-1,000 characters. */
export const appealSchema = z.object({
  sanctionId: uuidField("sanctionId must be an action's id"),
  body: multiLine(
    boundedString(APPEAL_MAX, `An appeal holds at most ${APPEAL_MAX} characters`).trim().min(1, "Write your appeal"),
    "The appeal contains characters that are not allowed",
  ),
});

export const idParamsSchema = z.object({ id: uuidField("Not found") });

/** `POST /api/appeals/suspended`: a partner of a suspended couple proves who they are to appeal (signed out). */
export const suspendedAppealSchema = signInSchema.extend({ body: appealSchema.shape.body });

/** `POST /api/moderation/appeals/{id}/{grant|refuse}`. */
export const appealDecisionParamsSchema = z.object({
  id: uuidField("Not found"),
  decision: z.enum(["grant", "refuse"], { error: "decision must be grant or refuse" }),
});

/** `POST /api/moderation/held/{id}/{deliver|drop}`. */
export const heldDecisionParamsSchema = z.object({
  id: uuidField("Not found"),
  decision: z.enum(HELD_DECISIONS, { error: "decision must be deliver or drop" }),
});

/** `POST /api/moderation/team`: an admin grants a role by e-mail. */
export const grantRoleSchema = z.object({
  email: emailSchema,
  role: z.enum(TEAM_ROLES, { error: "Choose moderator or admin" }),
});
export type GrantRoleInput = z.output<typeof grantRoleSchema>;

/** `DELETE /api/moderation/team/{userId}`: an admin makes a moderator or admin a member again. */
export const teamMemberParamsSchema = z.object({ userId: uuidField("Not found") });
