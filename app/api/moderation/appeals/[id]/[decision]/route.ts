import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { SAFETY_REACTIONS } from "@/lib/registry/safety";
import { decideAppeal } from "@/lib/safety/appeals";
import { appealDecisionParamsSchema } from "@/lib/safety/moderation-schemas";
import { MODERATION_PER_USER } from "@/lib/safety/rules";

/** Moderators and admins only: grant (the action is lifted) or refuse an appeal; not by the one who acted when the team has two or more. */
export const POST = route(
  { access: "moderator", params: appealDecisionParamsSchema, limits: [MODERATION_PER_USER] },
  async ({ db, moderator, params }) => {
    await decideAppeal(db, moderator, params.id, params.decision, SAFETY_REACTIONS);
    return NextResponse.json({ data: { id: params.id, decision: params.decision } });
  },
);
