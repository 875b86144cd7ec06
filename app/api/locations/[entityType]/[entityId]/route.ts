import { NextResponse } from "next/server";
import { requireCaller } from "@/lib/http/request-auth";
import { apiRoute } from "@/lib/http/route";
import { deleteLocation, entityRefSchema, getLocation, parseLocationInput } from "@/lib/locations";

type Params = { entityType: string; entityId: string };

export const GET = apiRoute<Params>(async (request, db, params) => {
  const caller = await requireCaller(db, request);
  const location = await getLocation(db, parseLocationInput(entityRefSchema, params), caller);
  return NextResponse.json({ success: true, location });
});

export const DELETE = apiRoute<Params>(async (request, db, params) => {
  const caller = await requireCaller(db, request);
  await deleteLocation(db, parseLocationInput(entityRefSchema, params), caller);
  return NextResponse.json({ success: true });
});
