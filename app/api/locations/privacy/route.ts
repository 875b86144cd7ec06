import { NextResponse } from "next/server";
import { readJson } from "@/lib/http/errors";
import { requireCaller } from "@/lib/http/request-auth";
import { apiRoute } from "@/lib/http/route";
import { parseLocationInput, privacyInputSchema, setPrivacy } from "@/lib/locations";

export const PUT = apiRoute(async (request, db) => {
  const caller = await requireCaller(db, request);
  const input = parseLocationInput(privacyInputSchema, await readJson(request));
  const location = await setPrivacy(db, input, caller);
  return NextResponse.json({ success: true, location });
});
