import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { teamMemberParamsSchema } from "@/lib/safety/moderation-schemas";
import { setRole } from "@/lib/safety/moderators";
import { MODERATION_PER_USER } from "@/lib/safety/rules";

/** Admins only, never their own role: revoke a moderator's or admin's role (a member again); logged. */
export const DELETE = route(
  { access: "admin", params: teamMemberParamsSchema, limits: [MODERATION_PER_USER] },
  async ({ db, caller, params }) => NextResponse.json({ data: await setRole(db, caller.userId, { userId: params.userId }, "member") }),
);
