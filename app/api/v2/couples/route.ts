import { NextResponse } from "next/server";
import { coupleCreateSchema } from "@/lib/couples/schemas";
import { createCouple } from "@/lib/couples/service";
import { COUPLE_REQUEST_BYTES } from "@/lib/couples/rules";
import { jsonBody, route } from "@/lib/http/route";
import { renewSessionCookie } from "@/lib/auth/renew-session-cookie";

/** Creates the caller's couple; a caller who has one gets 409 COUPLE_EXISTS with existingCoupleId. */
export const POST = route(
  { access: "signed-in", input: jsonBody(coupleCreateSchema, { firstIssue: true }, { maxBytes: COUPLE_REQUEST_BYTES }) },
  async ({ db, caller, request, input, clientAddress }) => {
    const data = await createCouple(db, caller.userId, input, { clientAddress });
    return renewSessionCookie(db, request, caller, NextResponse.json({ success: true, data }, { status: 201 }));
  },
);
