import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { grantRoleSchema } from "@/lib/safety/moderation-schemas";
import { moderationTeam, setRole } from "@/lib/safety/moderators";
import { MODERATION_PER_USER } from "@/lib/safety/rules";

/** Admins only: the team (moderators and admins), by name. */
export const GET = route({ access: "admin" }, async ({ db }) => NextResponse.json({ data: await moderationTeam(db) }));

/** Admins only, never their own role: grant moderator or admin by e-mail; logged. */
export const POST = route(
  { access: "admin", input: jsonBody(grantRoleSchema, { firstIssue: true }), limits: [MODERATION_PER_USER] },
  async ({ db, caller, input }) =>
    NextResponse.json({ data: await setRole(db, caller.userId, { email: input.email }, input.role) }, { status: 201 }),
);
