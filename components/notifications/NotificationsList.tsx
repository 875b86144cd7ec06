"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { Alert } from "@/components/ui/Alert";
import { markNotificationsRead } from "@/lib/notifications/client";
import { LIST_DEFAULT_LIMIT, notificationHref, type NotificationItem } from "@/lib/notifications/rules";
import { useNotificationsPage } from "./hooks";
import { NotificationLink, NotificationSummary } from "./NotificationSummary";
import styles from "./NotificationsList.module.css";

type Notice = { tone: "success" | "error"; text: string } | null;

const markFailed = "Could not mark notifications as read. Please try again.";

function Entry({ item, onError }: { item: NotificationItem; onError: () => void }) {
  const href = notificationHref(item);
  const entry = useRef<HTMLLIElement>(null);
  const mark = () => {
    if (!item.is_read) markNotificationsRead({ ids: [item.id] }).catch(onError);
  };
  // The button goes once the entry is read: the keyboard stays on the entry, not thrown to the page's top.
  const markHere = () => {
    entry.current?.focus();
    mark();
  };
  return (
    <li ref={entry} tabIndex={-1} className={item.is_read ? styles.entry : `${styles.entry} ${styles.unread}`}>
      {/* Only forum notifications lead somewhere; the rest are read here. */}
      {href === "/notifications" ? <NotificationSummary item={item} /> : <NotificationLink item={item} href={href} onClick={mark} />}
      {!item.is_read && (
        <button type="button" className={styles.mark} aria-label={`Mark as read: ${item.title}`} onClick={markHere}>
          Mark as read
        </button>
      )}
    </li>
  );
}

function Pager({ page, pages }: { page: number; pages: number }) {
  if (pages <= 1) return null;
  return (
    <nav className={styles.pager} aria-label="Notification pages">
      {page > 1 ? <Link href={`/notifications?page=${page - 1}`}>Previous</Link> : <span />}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages ? <Link href={`/notifications?page=${page + 1}`}>Next</Link> : <span />}
    </nav>
  );
}

/** A page of 20 notifications, newest first, with paging and 'Mark all as read'. */
export function NotificationsList({ page }: { page: number }) {
  const state = useNotificationsPage(LIST_DEFAULT_LIMIT, (page - 1) * LIST_DEFAULT_LIMIT);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);

  if (state.status === "loading") return <p role="status">Loading notifications...</p>;
  if (state.status === "error") return <Alert tone="error">Failed to load notifications</Alert>;

  const { data, pagination } = state.value;
  const pages = Math.ceil(pagination.total / LIST_DEFAULT_LIMIT);
  // All of the list as it was read, on any page (a later page's included the first page's): up to
  // its newest; one that arrived since stays unread. A list with none offers nothing to mark.
  const upTo = pagination.newestAt;
  const markAll = async (newest: string) => {
    setBusy(true);
    setNotice(null);
    try {
      const marked = await markNotificationsRead({ all: true, upTo: newest });
      setNotice({ tone: "success", text: marked ? "All notifications marked as read." : "Everything was already read." });
    } catch {
      setNotice({ tone: "error", text: markFailed });
    } finally {
      setBusy(false);
    }
  };

  if (pagination.total === 0) return <p className={styles.empty}>You&apos;re all caught up!</p>;
  return (
    <>
      <div className={styles.toolbar}>
        <p className="muted">
          {pagination.total} notification{pagination.total === 1 ? "" : "s"}
        </p>
        {upTo && (
          <button type="button" className="button button-secondary" onClick={() => markAll(upTo)} disabled={busy}>
            Mark all as read
          </button>
        )}
      </div>
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
      {data.length === 0 ? (
        <p>
          There is nothing on this page. <Link href="/notifications">Go to the newest notifications</Link>
        </p>
      ) : (
        <ul className={styles.list} aria-label="Notifications">
          {data.map((item) => (
            <Entry key={item.id} item={item} onError={() => setNotice({ tone: "error", text: markFailed })} />
          ))}
        </ul>
      )}
      <Pager page={page} pages={pages} />
    </>
  );
}
