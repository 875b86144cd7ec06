import "server-only";
import { and, arrayContains, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { emailOutbox, notifications, pushOutbox, pushSubscriptions } from "@/db/schema";
import { mailOpening } from "@/lib/mail/outbox";
import type { WaitingCopies } from "@/lib/notifications/service";
import { openTarget } from "@/lib/notifications/types/definition";
import { excerpt } from "@/lib/plain-text";

/** Notification texts are short: the bell shows a line or two. */
const SNIPPET_LENGTH = 140;

/** What a forum notification quotes of a post (its title) or a reply (its body). */
export const snippet = (text: string) => excerpt(text, SNIPPET_LENGTH);

/** A post (replyId null) or one of its replies, and who wrote it. */
export type ForumText = { authorUserId: string; postId: string; replyId: string | null };

/**
 * The notifications that quote a post or reply and open it: those its author's writing sent
 * (replies, mentions; actor_user_id) and those of reactions to it, which went to its author
 * (user_id). Found by the post or reply (notifications_post_reply_idx), not through the author's
 * indexes, which hold every notice they ever sent or were told.
 */
export const quoting = (text: ForumText): SQL =>
  and(
    or(eq(notifications.actorUserId, text.authorUserId), eq(notifications.userId, text.authorUserId)),
    eq(notifications.postId, text.postId),
    text.replyId ? eq(notifications.replyId, text.replyId) : isNull(notifications.replyId),
  )!;

/**
 * Who holds the notifications `quoting` picks (the people a post or reply mentioned or quoted,
 * its author): withdrawing them tells these bells at the commit, which key-shares their rows, so
 * a delete holds them first (holdNamedRows), before the post's or reply's row.
 */
export async function toldOf(db: Db, text: ForumText): Promise<string[]> {
  const rows = await db.selectDistinct({ userId: notifications.userId }).from(notifications).where(quoting(text));
  return rows.map((row) => row.userId);
}

/**
 * The pushes still waiting that quote a post or reply and open it, as `quoting` picks the
 * notifications: those the author's writing sent (replies, mentions; push_outbox_actor_idx) and
 * those of reactions to it on the author's own devices (push_subscriptions_user_idx, then
 * push_outbox_subscription_idx), which have no in-app row to go with when the author turned
 * those off. Held for a closed phone's retry, they would otherwise still send the words.
 */
export const pushesQuoting = (text: ForumText): SQL =>
  and(
    or(
      eq(pushOutbox.actorUserId, text.authorUserId),
      // An array, not `in (select …)`: each side of the `or` then finds its rows by its own index.
      sql`${pushOutbox.subscriptionId} = any(array(select ${pushSubscriptions.id} from ${pushSubscriptions} where ${pushSubscriptions.userId} = ${text.authorUserId}))`,
    ),
    eq(pushOutbox.url, openTarget({ post_id: text.postId, reply_id: text.replyId, conversation_id: null })),
  )!;

/**
 * The e-mails that quote a post or reply and open it, as `quoting` picks the notifications: naming
 * its author (the actor of replies and mentions, the person told of reactions; email_outbox_about_idx)
 * and opening it (mailOpening). A try again after a failure would otherwise still send the words.
 */
export const mailQuoting = (text: ForumText): SQL =>
  and(
    arrayContains(emailOutbox.aboutUserIds, [text.authorUserId]),
    mailOpening(openTarget({ post_id: text.postId, reply_id: text.replyId, conversation_id: null })),
  )!;

/** Everything still waiting to leave that quotes a post or reply: its pushes and its e-mails. */
export const waitingQuoting = (text: ForumText): WaitingCopies => ({ pushes: pushesQuoting(text), mail: mailQuoting(text) });
