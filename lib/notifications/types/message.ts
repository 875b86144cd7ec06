import { defineNotification, openTarget } from "./definition";

/**
 * To the people of the other couple when one writes (lib/messages/service.ts; never to a muted
 * conversation). Never the words themselves: a deleted message must leave no copy behind. Its
 * e-mail is the unread-message e-mail (lib/messages/unread-email.ts), for what is still unread a
 * while later. Its pushes collapse per conversation and are urgent (lib/notifications/push).
 */
export const message = defineNotification({
  type: "message",
  label: "Messages",
  hint: "When a couple you talk with writes to you (muted conversations never notify).",
  emailSubject: "New messages on Two of Us",
  defaults: { inApp: true, email: true, push: true },
  emailWhen: "still-unread",
  groups: "one row per person and conversation (text.groupKey), refreshed by each message, unread again after it was read",
  reopensReadRow: true,
  pushCollapsed: (count, coupleName) => `${count} new messages from ${coupleName}`,
  href: openTarget,
  text: {
    title: (coupleName: string) => `New messages from ${coupleName}`,
    message: (firstName: string, coupleName: string) => `${firstName} of ${coupleName} sent a message`,
    groupKey: (conversationId: string) => `conversation:${conversationId}`,
  },
});
