"use client";

import { useSearchParams, useSelectedLayoutSegment } from "next/navigation";
import type { ReactNode } from "react";
import { Inbox, type InboxStart } from "./Inbox";
import type { RequestViewer } from "./RequestList";
import styles from "./MessagesShell.module.css";

/**
 * /messages and its threads. A laptop keeps the inbox beside the open thread; a phone shows one
 * full screen at a time (CSS decides): the inbox, or the open thread with its back link.
 */
export function MessagesShell({
  viewer,
  initial,
  prompt,
  upcoming,
  children,
}: {
  viewer: RequestViewer;
  initial: InboxStart;
  /**
   * The push prompt, at the top of the inbox: beside a thread on a laptop, on the inbox's screen
   * on a phone; never above a thread, whose composer must stay on the screen.
   */
  prompt?: ReactNode;
  /** 'Upcoming' plans above the conversations. */
  upcoming?: ReactNode;
  children: ReactNode;
}) {
  const openId = useSelectedLayoutSegment();
  const initialTab = useSearchParams().get("tab") === "requests" ? "requests" : "conversations";
  return (
    <main id="main" className={`${styles.shell} ${openId ? styles.threadOpen : ""}`}>
      <section className={styles.inbox} aria-labelledby="messages-title">
        {/* The open thread's couple is the page's first heading when one is open. */}
        {openId ? (
          <h2 id="messages-title" className={styles.title}>
            Messages
          </h2>
        ) : (
          <h1 id="messages-title" className={styles.title}>
            Messages
          </h1>
        )}
        {prompt}
        {upcoming}
        {/* A notification's link to the requests opens that tab, even on /messages already. */}
        <Inbox key={initialTab} viewer={viewer} openId={openId} initialTab={initialTab} initial={initial} />
      </section>
      <div className={styles.pane}>{children}</div>
    </main>
  );
}
