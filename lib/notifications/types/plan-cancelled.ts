import { defineNotification, openTarget } from "./definition";

/** To the other three when a plan is cancelled (lib/plans/service.ts, or by a block or a deletion: no name then). */
export const planCancelled = defineNotification({
  type: "plan_cancelled",
  label: "Plans cancelled",
  hint: "When a plan you were asked to is cancelled.",
  emailSubject: "A plan was cancelled on Two of Us",
  defaults: { inApp: true, email: true, push: true },
  emailWhen: "at-once",
  pushShowsWords: true,
  groups: "none",
  href: openTarget,
  text: {
    title: (title: string) => `Plan cancelled: ${title}`,
    message: (who: string, reason: string | null) => (reason ? `${who} cancelled it: ${reason}` : `${who} cancelled it.`),
    /** Cancelled because the other couple can no longer meet (an account deleted, a suspension): no one is named. */
    ended: "This plan can no longer take place.",
  },
});
