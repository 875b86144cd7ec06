import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { appealSanction } from "@/lib/safety/appeals";
import { appealSchema } from "@/lib/safety/moderation-schemas";
import { MODERATION_PER_USER } from "@/lib/safety/rules";

/** A partner appeals an action on their couple, once per action (1-1,000 characters): 201, then 409. */
export const POST = route(
  { access: "complete-profile", input: jsonBody(appealSchema), limits: [MODERATION_PER_USER] },
  async ({ db, couple, input }) =>
    NextResponse.json({ data: await appealSanction(db, couple, input.sanctionId, input.body) }, { status: 201 }),
);
