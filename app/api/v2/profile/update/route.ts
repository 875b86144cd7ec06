import { NextResponse } from "next/server";
import { parseWith, readJson } from "@/lib/http/errors";
import { route } from "@/lib/http/route";
import { loadCurrentUser } from "@/lib/profile/queries";
import { normalizeProfileKeys, profileUpdateSchema } from "@/lib/profile/schemas";
import { updateProfile } from "@/lib/profile/service";
import { renewSessionCookie } from "@/lib/auth/renew-session-cookie";
import { LIMITS } from "@/lib/rate-limit";

/** Either key spelling is accepted: the keys are normalised before the schema reads them. */
const readProfileUpdate = async (request: Request) => parseWith(profileUpdateSchema, normalizeProfileKeys(await readJson(request)));

export const PUT = route(
  { access: "signed-in", limits: [LIMITS.profileSavesPerUser], input: readProfileUpdate },
  async ({ db, caller, request, input }) => {
    await updateProfile(db, caller.userId, input);
    const { user } = await loadCurrentUser(db, caller.userId);
    return renewSessionCookie(db, request, caller, NextResponse.json({ success: true, data: user }));
  },
);
