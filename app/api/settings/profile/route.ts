import { NextResponse } from "next/server";
import { renewSessionCookie } from "@/lib/auth/renew-session-cookie";
import { route } from "@/lib/http/route";
import { readMultipart } from "@/lib/onboarding/form";
import { loadCurrentUser } from "@/lib/profile/queries";
import { updateProfile } from "@/lib/profile/service";
import { profileSettingsFromForm } from "@/lib/settings/form";
import { LIMITS } from "@/lib/rate-limit";

/**
 * The 'Your profile' settings form (multipart, so a new photo goes along): the fields of
 * PUT /api/v2/profile/update and its updateProfile, the photo cropped and compressed in the browser.
 */
export const POST = route(
  {
    access: "complete-profile",
    limits: [LIMITS.profileSavesPerUser],
    input: async (request) => profileSettingsFromForm(await readMultipart(request)),
  },
  async ({ db, caller, request, input }) => {
    await updateProfile(db, caller.userId, input.update, undefined, input.avatar);
    const { user } = await loadCurrentUser(db, caller.userId);
    return renewSessionCookie(db, request, caller, NextResponse.json({ data: user }));
  },
);
