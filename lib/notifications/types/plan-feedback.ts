import { defineNotification, openTarget } from "./definition";

/** To each of the four once after a meetup (lib/plans/reminders.ts): 'How was it?', answered privately on the plan's card. */
export const planFeedback = defineNotification({
  type: "plan_feedback",
  label: "After a meetup",
  hint: "Once after you met: how was it? Only you see your answer.",
  emailSubject: "How was your meetup? On Two of Us",
  defaults: { inApp: true, email: false, push: false },
  emailWhen: "at-once",
  pushShowsWords: true,
  groups: "none",
  href: openTarget,
  text: {
    title: (title: string) => `How was it? ${title}`,
    message: "Tell us privately: only you see your answer.",
  },
});
