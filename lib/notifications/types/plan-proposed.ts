import { defineNotification, openTarget } from "./definition";

/** To the other three when one of the four proposes a plan (lib/plans/service.ts); it opens the conversation. */
export const planProposed = defineNotification({
  type: "plan_proposed",
  label: "Plans proposed",
  hint: "When someone in a conversation proposes to meet.",
  emailSubject: "A plan to meet on Two of Us",
  defaults: { inApp: true, email: true, push: true },
  emailWhen: "at-once",
  pushShowsWords: true,
  groups: "none",
  href: openTarget,
  text: {
    title: (title: string) => `New plan: ${title}`,
    message: (firstName: string, when: string) => `${firstName} proposed to meet ${when}. Are you going?`,
  },
});
