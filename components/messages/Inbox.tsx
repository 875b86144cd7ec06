"use client";

import { useRef, useState, type KeyboardEvent } from "react";
import { useLive } from "@/lib/live/client/use-live";
import { fetchIncomingRequests, REQUESTS_KEY, type InboxPage, type RequestsPage } from "@/lib/messages/client/api";
import { MESSAGES_POLL_MS } from "@/lib/messages/display";
import { ConversationList } from "./ConversationList";
import { RequestList, type RequestViewer } from "./RequestList";
import styles from "./Inbox.module.css";

const TABS = ["conversations", "requests"] as const;
export type Tab = (typeof TABS)[number];

/** What the server read for the first paint. */
export type InboxStart = { conversations: InboxPage; requests: RequestsPage };

type Props = { viewer: RequestViewer; openId: string | null; initialTab: Tab; initial: InboxStart };

/**
 * Two tabs, 'Conversations' and 'Requests (n)' (n: the open requests to this couple, every page), as an ARIA
 * tab list; `?tab=requests` (a request's notification) opens the second.
 */
export function Inbox({ viewer, openId, initialTab, initial }: Props) {
  const [tab, setTab] = useState<Tab>(initialTab);
  const tabs = useRef<Record<Tab, HTMLButtonElement | null>>({ conversations: null, requests: null });
  const requests = useLive(REQUESTS_KEY, (signal) => fetchIncomingRequests(null, signal), {
    pollMs: MESSAGES_POLL_MS,
    initial: initial.requests,
  });
  const count = requests.status === "ready" ? requests.value.total : 0;

  function choose(next: Tab) {
    setTab(next);
    tabs.current[next]?.focus();
  }

  // Arrow keys move between the tabs (the tabs pattern); Tab goes on into the panel.
  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    choose(TABS[(TABS.indexOf(tab) + 1) % TABS.length]!);
  }

  const label = { conversations: "Conversations", requests: `Requests (${count})` };
  return (
    <>
      <div role="tablist" aria-label="Messages" className={styles.tabs} onKeyDown={onKeyDown}>
        {TABS.map((name) => (
          <button
            key={name}
            ref={(element) => {
              tabs.current[name] = element;
            }}
            type="button"
            role="tab"
            id={`tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`panel-${name}`}
            tabIndex={tab === name ? 0 : -1}
            className={styles.tab}
            onClick={() => setTab(name)}
          >
            {label[name]}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="panel-conversations" aria-labelledby="tab-conversations" hidden={tab !== "conversations"}>
        <ConversationList
          viewerId={viewer.userId}
          openId={openId}
          initial={initial.conversations}
          waitingHellos={count}
          showRequests={() => choose("requests")}
        />
      </div>
      <div role="tabpanel" id="panel-requests" aria-labelledby="tab-requests" hidden={tab !== "requests"}>
        <RequestList state={requests} viewer={viewer} />
      </div>
    </>
  );
}
