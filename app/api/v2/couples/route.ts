import { NextResponse } from "next/server";
import { createCouple } from "@/lib/couples/service";
import { parseWith, readJson } from "@/lib/http/errors";
import { apiRoute } from "@/lib/http/route";
import { requireCaller } from "@/lib/http/request-auth";
import { coupleCreateSchema } from "@/lib/couples/schemas";
import { renewSessionCookie } from "@/lib/auth/renew-session-cookie";

/** Creates the caller's couple; a caller who has one gets 409 COUPLE_EXISTS with existingCoupleId. */
export const POST = apiRoute(async (request, db) => {
  const caller = await requireCaller(db, request);
  const input = parseWith(coupleCreateSchema, await readJson(request), { firstIssue: true });
  const data = await createCouple(db, caller.userId, input);
  return renewSessionCookie(db, request, caller, NextResponse.json({ success: true, data }, { status: 201 }));
});
