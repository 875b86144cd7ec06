import { NextResponse } from "next/server";
import { readJson } from "@/lib/http/errors";
import { requireCaller } from "@/lib/http/request-auth";
import { apiRoute } from "@/lib/http/route";
import { normalizeInputSchema, normalizeLocation, parseLocationInput } from "@/lib/locations";

export const POST = apiRoute(async (request, db) => {
  const caller = await requireCaller(db, request);
  const input = parseLocationInput(normalizeInputSchema, await readJson(request));
  const location = await normalizeLocation(db, input, caller);
  return NextResponse.json({ success: true, location });
});
