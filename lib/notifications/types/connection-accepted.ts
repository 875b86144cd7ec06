import { defineNotification, openTarget } from "./definition";

/** To the partners of the couple whose request was accepted (lib/connections/service.ts); it opens the conversation. */
export const connectionAccepted = defineNotification({
  type: "connection_accepted",
  label: "Accepted requests",
  hint: "When a couple accepts your request to talk.",
  emailSubject: "Your request was accepted on Two of Us",
  defaults: { inApp: true, email: true, push: true },
  emailWhen: "at-once",
  groups: "none",
  href: openTarget,
  text: { title: "Request accepted", message: (coupleName: string) => `${coupleName} accepted your request` },
});
