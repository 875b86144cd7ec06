import { defineNotification, openTarget } from "./definition";

/** To the other three when one changes what, when or where (lib/plans/service.ts): everyone is asked again. */
export const planChanged = defineNotification({
  type: "plan_changed",
  label: "Plans changed",
  hint: "When a plan's what, when or where changes, and you are asked again.",
  emailSubject: "A plan changed on Two of Us",
  defaults: { inApp: true, email: true, push: true },
  emailWhen: "at-once",
  groups: "none",
  href: openTarget,
  text: {
    title: (title: string) => `Plan changed: ${title}`,
    message: (firstName: string, what: string) => `${firstName} changed ${what}. Please answer again.`,
  },
});
