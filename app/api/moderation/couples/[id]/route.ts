import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { coupleRecord } from "@/lib/safety/couple-record";
import { idParamsSchema } from "@/lib/safety/moderation-schemas";
import { partnerVerifications } from "@/lib/verification/queries";

/**
 * Moderators and admins only: the couple's record (age, reports, blocks received, hellos in 30
 * days, earlier actions) and each partner's photo verification (lib/safety is a foundation: the
 * feature's part joins it here).
 */
export const GET = route({ access: "moderator", params: idParamsSchema }, async ({ db, moderator, params }) => {
  const [record, verifications] = await Promise.all([
    coupleRecord(db, params.id, moderator),
    partnerVerifications(db, params.id, moderator),
  ]);
  return NextResponse.json({ data: { ...record, verifications } });
});
