import { defineNotification, openTarget } from "./definition";

/** To the partner who invited: their partner accepted the invitation (lib/invitations/join.ts). */
export const partnerJoined = defineNotification({
  type: "partner_joined",
  label: "Partner joined",
  hint: "When your partner accepts your invitation.",
  emailSubject: "Your partner joined your couple profile",
  defaults: { inApp: true, email: true, push: false },
  emailWhen: "at-once",
  groups: "none",
  href: openTarget,
  text: {
    // By first name, as the product names a partner everywhere (spec section 2: 'Welcome, {first name}!').
    notice: (partner: { firstName: string }, coupleName: string) => ({
      title: `${partner.firstName} joined your couple!`,
      message: `${partner.firstName} accepted your invitation and is now part of ${coupleName}.`,
    }),
  },
});
