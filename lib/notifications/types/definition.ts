/**
 * What a notification type is, in one place (as midday keeps one handler per type): what it says,
 * where it opens, its default channels, how it groups. Pure and browser-safe: the settings page,
 * the bell and the sender all read the definitions listed in ./index.ts.
 */

/**
 * The channels a notification may reach a person by, in the settings' order: the settings page
 * shows one checkbox each, the sender (lib/notifications/service.ts) delivers by each one chosen.
 * `field` names the checkbox; `key` the choice's property (the API's, and a preferences column).
 */
export const CHANNELS = [
  { key: "inApp", label: "In the app", field: "in-app", required: true },
  { key: "email", label: "By e-mail", field: "email", required: true },
  // Added after the others: a client that does not send it keeps the stored choice. Reaches the
  // person's devices with notifications on (lib/notifications/push).
  { key: "push", label: "Push", field: "push", required: false },
] as const;
export type Channel = (typeof CHANNELS)[number]["key"];
export type ChannelChoice = Record<Channel, boolean>;
/** A choice as a client sends it: the channels that are not `required` may be left out. */
export type ChannelChoiceInput = Omit<ChannelChoice, "push"> & { push?: boolean };

/** What a notification points at (the API's names). */
export type NotificationTarget = { post_id: string | null; reply_id: string | null; conversation_id?: string | null };

export type NotificationDefinition<Type extends string = string, Text = unknown> = {
  type: Type;
  /** The settings' row. */
  label: string;
  hint: string;
  /** The e-mail's subject when a notification has no title. */
  emailSubject: string;
  /** Until a person chooses. */
  defaults: ChannelChoice;
  /**
   * When its e-mail leaves: at once with the notification, or only for what is still unread a
   * while later (messages: lib/messages/unread-email.ts), so a conversation in progress sends none.
   */
  emailWhen: "at-once" | "still-unread";
  /**
   * A service e-mail: a decision about the person's own account, which must reach them even when
   * they cannot sign in to read it in the app (a suspension, and how to appeal it). Sent whatever
   * their e-mail choice, with no unsubscribe link; the settings show its e-mail as always on.
   */
  serviceEmail?: true;
  /** How its rows group: none (one row each), or one unread row per key (`groupKey` of the write). */
  groups: "none" | string;
  /**
   * A group keeps one row for good: an event after it was read makes that row unread again at the
   * top of the list, where otherwise it starts a new row (a conversation is one entry, however
   * many bursts it has).
   */
  reopensReadRow?: true;
  /**
   * Its pushes collapse per conversation (one Topic, so a newer one replaces the older on the
   * device), and this is what several say: '3 new messages from Marisol & Thaddeus', the count as
   * a badge shows it ('99+' past the cap: ../rules.ts `badgeText`).
   */
  pushCollapsed?: (count: string, coupleName: string) => string;
  /**
   * Its title and message hold someone's words or a meetup's details (a plan's what, when and
   * where, a reply's text): a push to a person who keeps previews off says only its `emailSubject`,
   * as a message's push then says only who wrote (lib/notifications/push/deliver.ts).
   */
  pushShowsWords?: true;
  /** Where it opens. */
  href(target: NotificationTarget): string;
  /** What it says: the texts its writers build its title and message from. */
  text: Text;
};

export const defineNotification = <const Type extends string, Text>(definition: NotificationDefinition<Type, Text>) => definition;

/**
 * The usual place a notification opens: its conversation, else its post (at the reply when
 * there is one), else the notifications list.
 */
export function openTarget(target: NotificationTarget): string {
  if (target.conversation_id) return `/messages/${encodeURIComponent(target.conversation_id)}`;
  if (!target.post_id) return "/notifications";
  const post = `/forum/post/${encodeURIComponent(target.post_id)}`;
  return target.reply_id ? `${post}#reply-${encodeURIComponent(target.reply_id)}` : post;
}
