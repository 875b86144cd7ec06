import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { entityRefSchema } from "@/lib/locations/schemas";
import { deleteLocation, getLocation } from "@/lib/locations/service";
import { LIMITS } from "@/lib/rate-limit";

/** The entity named in the path, its failures worded like the other location calls (first problem). */
const options = { access: "signed-in", params: entityRefSchema, paramsMessage: { firstIssue: true } } as const;

export const GET = route(options, async ({ db, caller, params }) => {
  const location = await getLocation(db, params, caller);
  return NextResponse.json({ success: true, location });
});

export const DELETE = route({ ...options, limits: [LIMITS.locationSettingsPerUser] }, async ({ db, caller, params }) => {
  await deleteLocation(db, params, caller);
  return NextResponse.json({ success: true });
});
