import { NextResponse } from "next/server";
import { clientAddress } from "@/lib/http/client-address";
import { parseWith, readJson } from "@/lib/http/errors";
import { requireCaller } from "@/lib/http/request-auth";
import { apiRoute } from "@/lib/http/route";
import { completeRegistration } from "@/lib/invitations/complete-registration";
import { completeRegistrationSchema } from "@/lib/invitations/rules";

/** Completes the signed-in account's registration; with an invitation token it also joins that couple. */
export const POST = apiRoute(async (request, db) => {
  const caller = await requireCaller(db, request);
  const input = parseWith(completeRegistrationSchema, await readJson(request));
  const data = await completeRegistration(db, caller.userId, input, { clientAddress: clientAddress(request.headers) });
  return NextResponse.json({ success: true, data });
});
