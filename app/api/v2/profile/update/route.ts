import { NextResponse } from "next/server";
import { parseWith, readJson } from "@/lib/http/errors";
import { apiRoute } from "@/lib/http/route";
import { requireCaller } from "@/lib/http/request-auth";
import { loadCurrentUser } from "@/lib/profile/queries";
import { normalizeProfileKeys, profileUpdateSchema } from "@/lib/profile/schemas";
import { updateProfile } from "@/lib/profile/service";

export const PUT = apiRoute(async (request, db) => {
  const caller = await requireCaller(db, request);
  const update = parseWith(profileUpdateSchema, normalizeProfileKeys(await readJson(request)));
  await updateProfile(db, caller.userId, update);
  const { user } = await loadCurrentUser(db, caller.userId);
  return NextResponse.json({ success: true, data: user });
});
