import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { appealSanction } from "@/lib/safety/appeals";
import { appealSchema } from "@/lib/safety/moderation-schemas";

/** A partner appeals an action on their couple, once per action (1-1,000 characters): 201, then 409 (the once bounds it, no rate limit). */
export const POST = route({ access: "complete-profile", input: jsonBody(appealSchema) }, async ({ db, couple, input }) =>
  NextResponse.json({ data: await appealSanction(db, couple, input.sanctionId, input.body) }, { status: 201 }),
);
