"use client";

import Link from "next/link";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { Alert } from "@/components/ui/Alert";
import { LoadMore } from "@/components/ui/LoadMore";
import { useLoadMore } from "@/components/ui/useLoadMore";
import { useLive } from "@/lib/live/client/use-live";
import { fetchInbox, INBOX_KEY, type InboxPage } from "@/lib/messages/client/api";
import { badgeText } from "@/lib/notifications/rules";
import { MESSAGE_TEXTS } from "@/lib/messages/rules";
import { INBOX_TEXTS, lastMessageLine, MESSAGES_POLL_MS, type InboxRow } from "@/lib/messages/display";
import { emptyPage, nextCursorOf } from "@/lib/pagination/page";
import { CoupleFace } from "./CoupleFace";
import styles from "./ConversationList.module.css";

type Props = {
  viewerId: string;
  openId: string | null;
  initial: InboxPage;
  /** Hellos waiting on the other tab: an empty inbox points to them rather than to the directory. */
  waitingHellos: number;
  showRequests: () => void;
};

/**
 * The conversations, newest activity first: the first page stays current through the live hook;
 * 'Load more' follows the keyset cursor and keeps what it loaded below it.
 */
export function ConversationList({ viewerId, openId, initial, waitingHellos, showRequests }: Props) {
  const first = useLive(INBOX_KEY, (signal) => fetchInbox(null, signal), { pollMs: MESSAGES_POLL_MS, initial });
  const page = first.status === "ready" ? first.value : emptyPage<InboxRow>(0);
  // A conversation with new activity moves up onto the first page: shown there only.
  const { attachList, ...list } = useLoadMore({
    firstCursor: nextCursorOf(page),
    firstIds: page.data.map((row) => row.id),
    load: (cursor) => fetchInbox(cursor),
    idOf: (row) => row.id,
    failed: "Could not load more conversations",
  });

  if (first.status === "loading") return <p className={styles.empty}>Loading conversations...</p>;
  if (first.status === "error") return <Alert tone="error">Could not load your conversations. Please try again.</Alert>;
  const rows = [...page.data, ...list.more];

  if (rows.length === 0)
    return (
      <div className={styles.empty}>
        <p>No conversations yet.</p>
        {waitingHellos > 0 ? (
          <p>
            <button type="button" className="button button-primary" onClick={showRequests}>
              {INBOX_TEXTS.hellosWaiting(waitingHellos)}
            </button>
          </p>
        ) : (
          <p>
            <Link href="/directory">{INBOX_TEXTS.noConversations}</Link>
          </p>
        )}
      </div>
    );
  return (
    <>
      <ul className={styles.list} aria-label="Conversations" ref={attachList}>
        {rows.map((row) => (
          <li key={row.id}>
            <Link
              href={`/messages/${encodeURIComponent(row.id)}`}
              className={row.unreadCount > 0 ? `${styles.row} ${styles.unread}` : styles.row}
              aria-current={row.id === openId ? "page" : undefined}
              // Not prefetched: a conversation is rendered per request (CoupleCard's rule).
              prefetch={false}
            >
              <CoupleFace url={row.couple.profileImageUrl} />
              <span className={styles.text}>
                <span className={styles.top}>
                  <span className={styles.name}>{row.couple.coupleName}</span>
                  <span className={styles.time}>
                    <RelativeTime at={row.lastMessage?.createdAt ?? row.updatedAt} />
                  </span>
                </span>
                <span className={styles.last}>
                  {row.ended ? MESSAGE_TEXTS.ended : lastMessageLine(row.lastMessage, viewerId) || "No messages yet"}
                </span>
              </span>
              {row.unreadCount > 0 && (
                <span className={styles.count}>
                  {badgeText(row.unreadCount)}
                  <span className="visually-hidden"> unread</span>
                </span>
              )}
            </Link>
          </li>
        ))}
      </ul>
      <LoadMore list={list} className={styles.more} />
    </>
  );
}
