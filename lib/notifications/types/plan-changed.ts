import { defineNotification, openTarget } from "./definition";

/** To the other three when one changes what, when or where (everyone is asked again) or the note (lib/plans/service.ts). */
export const planChanged = defineNotification({
  type: "plan_changed",
  label: "Plans changed",
  hint: "When a plan's what, when, where or note changes.",
  emailSubject: "A plan changed on Two of Us",
  defaults: { inApp: true, email: true, push: true },
  emailWhen: "at-once",
  pushShowsWords: true,
  groups: "none",
  href: openTarget,
  text: {
    title: (title: string) => `Plan changed: ${title}`,
    message: (firstName: string, what: string, asksAgain: boolean) =>
      `${firstName} changed ${what}.${asksAgain ? " Please answer again." : ""}`,
  },
});
