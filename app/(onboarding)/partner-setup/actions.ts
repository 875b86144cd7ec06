"use server";

import { refreshSessionClaims } from "@/lib/auth/refresh-claims";
import { action, formArgument } from "@/lib/http/action";
import { parseWith } from "@/lib/http/errors";
import { uploadedImageBytes } from "@/lib/images/upload";
import { completeRegistration, destinationAfter } from "@/lib/invitations/complete-registration";
import { MESSAGES } from "@/lib/invitations/rules";
import { partnerSetupSchema } from "@/lib/invitations/schemas";

/** The form's fields, then its optional photo (checked as an image upload). */
async function readPartnerSetup(sent: FormData) {
  const form = formArgument(sent);
  const field = (name: string) => form.get(name) ?? undefined;
  const fields = parseWith(partnerSetupSchema, {
    firstName: field("firstName"),
    lastName: field("lastName"),
    dateOfBirth: field("dateOfBirth"),
    occupation: field("occupation"),
  });
  return { fields, avatar: await uploadedImageBytes(form.get("photo"), "photo") };
}

/**
 * Partner B's setup form: the same domain function as POST /api/auth/complete-registration, plus
 * the optional photo. Occupation may complete the profile, so the session flags are refreshed,
 * and the form goes where the account now belongs.
 */
export const completePartnerSetupAction = action(
  { access: "signed-in", input: readPartnerSetup, failure: MESSAGES.setupFailed },
  async ({ db, caller, input: { fields, avatar }, clientAddress }) => {
    const completed = await completeRegistration(db, caller.userId, fields, { clientAddress, avatar });
    await refreshSessionClaims();
    return { destination: destinationAfter(completed) };
  },
);
