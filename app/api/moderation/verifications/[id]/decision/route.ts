import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { MODERATION_PER_USER } from "@/lib/safety/rules";
import { verificationDecisionSchema, verificationParamsSchema } from "@/lib/verification/schemas";
import { decideVerification } from "@/lib/verification/service";

/** Moderators and admins only: approve a pending selfie, or refuse it with a reason (`{decision, reason?}`); never their own couple's. */
export const POST = route(
  { access: "moderator", params: verificationParamsSchema, input: jsonBody(verificationDecisionSchema), limits: [MODERATION_PER_USER] },
  async ({ db, moderator, params, input }) => NextResponse.json({ data: await decideVerification(db, moderator, params.id, input) }),
);
