import { NextResponse } from "next/server";
import { decideHeldHello } from "@/lib/connections/held";
import { route } from "@/lib/http/route";
import { heldDecisionParamsSchema } from "@/lib/safety/moderation-schemas";
import { MODERATION_PER_USER } from "@/lib/safety/rules";

/** Moderators and admins only, never on their own couple; logged: deliver a held hello as a normal request, or drop it (the sender is not told which). */
export const POST = route(
  { access: "moderator", params: heldDecisionParamsSchema, limits: [MODERATION_PER_USER] },
  async ({ db, moderator, params }) => {
    await decideHeldHello(db, moderator, params.id, params.decision);
    return NextResponse.json({ data: { id: params.id, status: params.decision === "deliver" ? "delivered" : "dropped" } });
  },
);
