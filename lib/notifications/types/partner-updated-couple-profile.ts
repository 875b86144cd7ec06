import { defineNotification } from "./definition";

/**
 * To the other partner when one saves the couple profile in Settings ('Couple profile'): in the
 * app (and live on the bell), not by e-mail unless chosen. It opens the couple profile.
 */
export const partnerUpdatedCoupleProfile = defineNotification({
  type: "partner_updated_couple_profile",
  label: "Couple profile changes",
  hint: "When your partner updates your couple profile.",
  emailSubject: "Your partner updated your couple profile",
  defaults: { inApp: true, email: false, push: false },
  emailWhen: "at-once",
  groups: "none",
  href: () => "/profile",
  text: {
    title: (firstName: string) => `${firstName} updated your couple profile`,
    message: (firstName: string, coupleName: string) => `${firstName} saved changes to ${coupleName} in Settings.`,
  },
});
