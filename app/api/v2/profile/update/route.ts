import { NextResponse } from "next/server";
import { parseWith, readJson } from "@/lib/http/errors";
import { apiRoute } from "@/lib/http/route";
import { requireCaller } from "@/lib/http/request-auth";
import { loadCurrentUser } from "@/lib/profile/current-user";
import { normalizeProfileKeys, profileUpdateSchema, updateProfile } from "@/lib/profile/update";
import { renewSessionCookie } from "@/lib/auth/renew-session-cookie";

export const PUT = apiRoute(async (request, db) => {
  const caller = await requireCaller(db, request);
  const update = parseWith(profileUpdateSchema, normalizeProfileKeys(await readJson(request)));
  await updateProfile(db, caller.userId, update);
  const { user } = await loadCurrentUser(db, caller.userId);
  return renewSessionCookie(db, request, caller, NextResponse.json({ success: true, data: user }));
});
