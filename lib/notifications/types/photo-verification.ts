import { decisionNotice, VERIFICATION_SETTINGS } from "@/lib/verification/rules";
import { defineNotification } from "./definition";

/** To the partner who sent a selfie: a moderator approved it, or refused it with a reason (lib/verification/service.ts). */
export const photoVerification = defineNotification({
  type: "photo_verification",
  label: "Photo verification",
  hint: "When a moderator has decided about your verification selfie.",
  emailSubject: "Your photo verification",
  defaults: { inApp: true, email: true, push: false },
  emailWhen: "at-once",
  groups: "none",
  href: () => VERIFICATION_SETTINGS,
  text: { decided: decisionNotice },
});
