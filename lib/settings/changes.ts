/**
 * What a settings form sends: only what changed from what is saved, as the server's partial saves
 * take it (what is not sent is left alone). Pure and browser-safe.
 */
import { CHANNELS, NOTIFICATION_TYPES, type NotificationPreferences } from "@/lib/notifications/rules";

const sameSet = (one: readonly string[], other: readonly string[]) =>
  one.length === other.length && one.every((item) => other.includes(item));

/**
 * The interests 'Your profile' sends: only a list changed from the saved one. Without a list the
 * server leaves the interests alone, so a partner who joined by invitation with none saves their
 * names and photo before picking any; a list that is sent is judged as the server judges it.
 */
export const interestsToSend = ({ interests, savedInterests }: { interests: string[]; savedInterests: readonly string[] }) =>
  sameSet(interests, savedInterests) ? undefined : interests;

/**
 * The notification types whose channels were changed on the page since it loaded or saved
 * (`saved`), each whole (the call's unit) as it stands now (`current`, read just before the save)
 * with the channels changed here: a type left alone is not sent, and a changed type's other
 * channels are not sent back as the page first showed them, so a page open for a while never
 * undoes what was chosen elsewhere since (an e-mail's unsubscribe link, another tab).
 */
export function changedPreferences(
  saved: NotificationPreferences,
  chosen: NotificationPreferences,
  current: NotificationPreferences,
): Partial<NotificationPreferences> {
  return Object.fromEntries(
    NOTIFICATION_TYPES.flatMap((type) => {
      const changed = CHANNELS.filter(({ key }) => saved[type][key] !== chosen[type][key]);
      if (changed.length === 0) return [];
      return [[type, { ...current[type], ...Object.fromEntries(changed.map(({ key }) => [key, chosen[type][key]])) }]];
    }),
  );
}
