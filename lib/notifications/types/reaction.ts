import { defineNotification, openTarget } from "./definition";

/**
 * To a post's or reply's author. E-mail off until chosen: reactions come in bursts (as most apps
 * do). Grouped as Mastodon groups them: the latest couple to react is named and the other couples
 * are counted ("Ana & Rui and 3 others reacted to your post"); a partner's reaction names the
 * partner ("Ben reacted to your post"). A couple the reader may not see (lib/safety/visibility.ts)
 * is counted but never named, as in who reacted: "A couple reacted to your post".
 */
export const reaction = defineNotification({
  type: "reaction",
  label: "Reactions",
  hint: "When couples react to your posts and replies.",
  emailSubject: "New reaction on Two of Us",
  defaults: { inApp: true, email: false, push: false },
  emailWhen: "at-once",
  groups: "one unread row per post or reply and UTC day (text.groupKey)",
  href: openTarget,
  text: {
    /** `latest` is null for a couple the reader may not see. */
    title(latest: string | null, otherCouples: number, target: "post" | "reply"): string {
      const others = otherCouples > 0 ? ` and ${otherCouples} ${otherCouples === 1 ? "other" : "others"}` : "";
      return `${latest ?? "A couple"}${others} reacted to your ${target}`;
    },
    groupKey: (target: "post" | "reply", id: string, at: Date = new Date()) => `reaction:${target}:${id}:${at.toISOString().slice(0, 10)}`,
  },
});
