import { defineNotification, openTarget } from "./definition";

/** To the partners of the couple a request was sent to (lib/connections/service.ts); it opens the requests. */
export const connectionRequest = defineNotification({
  type: "connection_request",
  label: "Connection requests",
  hint: "When a couple says hello and asks to talk.",
  emailSubject: "A couple said hello on Two of Us",
  defaults: { inApp: true, email: true, push: true },
  emailWhen: "at-once",
  groups: "none",
  href: (target) => (target.conversation_id ? openTarget(target) : "/messages?tab=requests"),
  text: { title: "New connection request", message: (coupleName: string) => `${coupleName} said hello` },
});
