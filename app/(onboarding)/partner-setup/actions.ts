"use server";

import { headers } from "next/headers";
import { getDb } from "@/db/client";
import { requireActionUserId } from "@/lib/auth/current-session";
import { refreshSessionClaims } from "@/lib/auth/refresh-claims";
import { actionFailure, type ActionResult } from "@/lib/http/action-result";
import { clientAddress } from "@/lib/http/client-address";
import { parseWith } from "@/lib/http/errors";
import { uploadedImageBytes } from "@/lib/images";
import { completeRegistration, destinationAfter } from "@/lib/invitations/complete-registration";
import { MESSAGES, partnerSetupSchema } from "@/lib/invitations/rules";

/**
 * Partner B's setup form: the same domain function as POST /api/auth/complete-registration, plus
 * the optional photo. Occupation may complete the profile, so the session flags are refreshed,
 * and the form goes where the account now belongs.
 */
export async function completePartnerSetupAction(form: FormData): Promise<ActionResult<{ destination: string }>> {
  try {
    const userId = await requireActionUserId();
    const field = (name: string) => form.get(name) ?? undefined;
    const input = parseWith(
      partnerSetupSchema,
      { firstName: field("firstName"), lastName: field("lastName"), dateOfBirth: field("dateOfBirth"), occupation: field("occupation") },
    );
    const avatar = await uploadedImageBytes(form.get("photo"), "photo");
    const completed = await completeRegistration(await getDb(), userId, input, { clientAddress: clientAddress(await headers()), avatar });
    await refreshSessionClaims();
    return { ok: true, destination: destinationAfter(completed) };
  } catch (error) {
    return actionFailure(error, MESSAGES.setupFailed);
  }
}
