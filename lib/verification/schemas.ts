/** What partners and moderators send about photo verification (bodies, params, query strings). Pure and browser-safe. */
import { z } from "zod";
import { uuidField } from "@/lib/fields";
import { POSE_IDS, REFUSAL_KEYS } from "./rules";

/** `POST /api/verification/selfie`: the pose the selfie was taken in (the multipart's `pose`, beside `photo`). */
export const selfiePoseSchema = z.object({ pose: z.enum(POSE_IDS, { error: "Unknown pose" }) });

/** `/api/moderation/verifications/{id}/...`: the partner's user id. */
export const verificationParamsSchema = z.object({ id: uuidField("Not found") });

/** `POST /api/moderation/verifications/{id}/decision`: approve, or refuse with a reason the partner sees. */
export const verificationDecisionSchema = z
  .object({
    decision: z.enum(["approve", "refuse"], { error: "decision must be approve or refuse" }),
    reason: z.enum(REFUSAL_KEYS, { error: "Choose why the selfie is refused" }).optional(),
  })
  .refine((input) => input.decision === "approve" || input.reason !== undefined, {
    message: "Choose why the selfie is refused",
    path: ["reason"],
  });
export type VerificationDecision = z.output<typeof verificationDecisionSchema>;
