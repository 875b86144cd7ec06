import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { coupleRecord } from "@/lib/safety/couple-record";
import { idParamsSchema } from "@/lib/safety/moderation-schemas";

/** Moderators and admins only: the couple's record (age, reports, blocks received, hellos in 30 days, earlier actions). */
export const GET = route({ access: "moderator", params: idParamsSchema }, async ({ db, params }) =>
  NextResponse.json({ data: await coupleRecord(db, params.id) }),
);
