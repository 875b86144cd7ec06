import { NextResponse } from "next/server";
import { reportContext } from "@/lib/forum/reports";
import { route } from "@/lib/http/route";
import { idParamsSchema } from "@/lib/safety/moderation-schemas";
import { MODERATION_PER_USER } from "@/lib/safety/rules";

/** Moderators and admins only: a reported message with the ten before it, and nothing else of its conversation; the opening is logged. */
export const GET = route(
  { access: "moderator", params: idParamsSchema, limits: [MODERATION_PER_USER] },
  async ({ db, moderator, params }) => NextResponse.json({ data: await reportContext(db, moderator, params.id) }),
);
