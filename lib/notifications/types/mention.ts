import { defineNotification, openTarget } from "./definition";

/** To the partners of a couple mentioned in a post or reply (lib/forum/service.ts). */
export const mention = defineNotification({
  type: "mention",
  label: "Mentions",
  hint: "When a couple mentions yours in the forum.",
  emailSubject: "You were mentioned on Two of Us",
  defaults: { inApp: true, email: true, push: false },
  emailWhen: "at-once",
  pushShowsWords: true,
  groups: "none",
  href: openTarget,
  text: { title: (who: string) => `${who} mentioned you` },
});
