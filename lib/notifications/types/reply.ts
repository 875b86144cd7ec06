import { defineNotification, openTarget } from "./definition";

/** To a post's or a quoted reply's author (lib/forum/service.ts); `who` as lib/forum/rules.ts notifiedName says it. */
export const reply = defineNotification({
  type: "reply",
  label: "Replies",
  hint: "When someone replies to your post or quotes your reply.",
  emailSubject: "New reply on Two of Us",
  defaults: { inApp: true, email: true, push: false },
  emailWhen: "at-once",
  pushShowsWords: true,
  groups: "none",
  href: openTarget,
  text: {
    toPost: (who: string) => `${who} replied to your post`,
    toReply: (who: string) => `${who} replied to your reply`,
  },
});
