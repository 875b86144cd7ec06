import { appealRefusedNotice, sanctionNotice, liftedNotice, SAFETY_PAGE } from "@/lib/safety/rules";
import { defineNotification } from "./definition";

/** To both partners: a moderator acted on their couple, or lifted it (lib/notifications/moderation.ts). */
export const moderation = defineNotification({
  type: "moderation",
  label: "Moderators' decisions",
  hint: "When our moderators act on your couple, or lift what they did.",
  emailSubject: "A decision of our moderators about your couple",
  defaults: { inApp: true, email: true, push: false },
  emailWhen: "at-once",
  // Sign-in and the signed-out appeal form promise this e-mail (lib/safety/rules.ts, SuspendedAppealForm).
  serviceEmail: true,
  pushShowsWords: true,
  groups: "none",
  // Every moderation notice links to what moderators do and how to appeal.
  href: () => SAFETY_PAGE,
  text: { sanctioned: sanctionNotice, lifted: liftedNotice, appealRefused: appealRefusedNotice },
});
