import { NextResponse } from "next/server";
import { updateCouple } from "@/lib/couples/service";
import { route } from "@/lib/http/route";
import { readMultipart } from "@/lib/onboarding/form";
import { coupleSettingsFromForm } from "@/lib/settings/form";
import { LIMITS } from "@/lib/rate-limit";

/**
 * The 'Couple profile' settings form (multipart, so new photos go along): the fields of
 * PUT /api/v2/couples/{id} and its updateCouple, always on the caller's own couple; the other
 * partner is told ('<First name> updated your couple profile').
 */
export const POST = route(
  {
    access: "complete-profile",
    limits: [LIMITS.profileSavesPerUser],
    input: async (request) => coupleSettingsFromForm(await readMultipart(request)),
  },
  async ({ db, caller, couple, input, clientAddress }) => {
    const data = await updateCouple(db, caller.userId, couple.coupleId, input.update, {
      photos: input.photos,
      notifyPartner: true,
      clientAddress,
    });
    return NextResponse.json({ data });
  },
);
