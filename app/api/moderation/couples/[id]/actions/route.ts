import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { SAFETY_REACTIONS } from "@/lib/registry/safety";
import { idParamsSchema, sanctionSchema } from "@/lib/safety/moderation-schemas";
import { MODERATION_PER_USER } from "@/lib/safety/rules";
import { sanctionCouple } from "@/lib/safety/sanctions";

/** Moderators and admins only, never on their own couple: warn, restrict (1, 7 or 30 days), suspend or ban a couple, with a guideline and a note. */
export const POST = route(
  { access: "moderator", params: idParamsSchema, input: jsonBody(sanctionSchema), limits: [MODERATION_PER_USER] },
  async ({ db, moderator, params, input }) => {
    const done = await sanctionCouple(db, moderator, params.id, input, SAFETY_REACTIONS);
    return NextResponse.json({ data: { id: done.id, kind: input.kind } }, { status: 201 });
  },
);
