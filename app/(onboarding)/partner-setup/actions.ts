"use server";

import { headers } from "next/headers";
import { getDb } from "@/db/client";
import { auth } from "@/lib/auth/auth";
import { refreshSessionClaims } from "@/lib/auth/refresh-claims";
import { AppError } from "@/lib/errors";
import { actionFailure, type ActionResult } from "@/lib/http/action-result";
import { clientAddress } from "@/lib/http/client-address";
import { parseWith } from "@/lib/http/errors";
import { INVALID_IMAGE_MESSAGE, MAX_IMAGE_BYTES, TOO_LARGE_MESSAGE } from "@/lib/images";
import { completeRegistration } from "@/lib/invitations/complete-registration";
import { MESSAGES, partnerSetupSchema } from "@/lib/invitations/rules";

const photoError = (message: string) => new AppError("VALIDATION_ERROR", message, { fieldErrors: { photo: message } });

/** The optional photo part: absent or empty means none was picked. */
async function photoBytes(value: FormDataEntryValue | null): Promise<Uint8Array | null> {
  if (value === null || value === "") return null;
  if (typeof value === "string") throw photoError(INVALID_IMAGE_MESSAGE);
  if (value.size === 0) return null;
  if (value.size > MAX_IMAGE_BYTES) throw photoError(TOO_LARGE_MESSAGE);
  return new Uint8Array(await value.arrayBuffer());
}

/**
 * Partner B's setup form: the same domain function as POST /api/auth/complete-registration, plus
 * the optional photo. Occupation may complete the profile, so the session flags are refreshed.
 */
export async function completePartnerSetupAction(form: FormData): Promise<ActionResult> {
  try {
    const session = await auth();
    if (!session?.claims.sub) throw new AppError("UNAUTHENTICATED", "Not authenticated");
    const field = (name: string) => form.get(name) ?? undefined;
    const input = parseWith(
      partnerSetupSchema,
      { firstName: field("firstName"), lastName: field("lastName"), dateOfBirth: field("dateOfBirth"), occupation: field("occupation") },
      MESSAGES.checkFields,
    );
    const avatar = await photoBytes(form.get("photo"));
    await completeRegistration(await getDb(), session.claims.sub, input, { clientAddress: clientAddress(await headers()), avatar });
    await refreshSessionClaims();
    return { ok: true };
  } catch (error) {
    return actionFailure(error, "Failed to complete setup");
  }
}
