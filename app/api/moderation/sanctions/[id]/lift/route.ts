import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { SAFETY_REACTIONS } from "@/lib/registry/safety";
import { idParamsSchema, liftSchema } from "@/lib/safety/moderation-schemas";
import { MODERATION_PER_USER } from "@/lib/safety/rules";
import { liftSanction } from "@/lib/safety/sanctions";

/** Moderators and admins only, never on their own couple: lifts a warning, restriction, suspension or ban, with a reason. */
export const POST = route(
  { access: "moderator", params: idParamsSchema, input: jsonBody(liftSchema), limits: [MODERATION_PER_USER] },
  async ({ db, moderator, params, input }) => {
    await liftSanction(db, moderator, params.id, input.reason, SAFETY_REACTIONS);
    return NextResponse.json({ data: { id: params.id, lifted: true } });
  },
);
