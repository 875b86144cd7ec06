import { defineNotification, openTarget } from "./definition";

/** To those going or maybe, the evening before (18:00 at the place) and two hours before (lib/plans/reminders.ts). */
export const planReminder = defineNotification({
  type: "plan_reminder",
  label: "Plan reminders",
  hint: "The evening before a plan you are going to, and two hours before it.",
  emailSubject: "Your plan is coming up on Two of Us",
  defaults: { inApp: true, email: true, push: true },
  emailWhen: "at-once",
  pushShowsWords: true,
  groups: "none",
  href: openTarget,
  text: {
    title: (title: string) => `Coming up: ${title}`,
    message: (when: string, where: string) => `${when} · ${where}`,
  },
});
