"use client";

import { useEffect, useRef, useState } from "react";
import { fetchNotifications, fetchUnreadCount, onNotificationsChanged, type NotificationsPage } from "@/lib/notifications/client";
import { UNREAD_POLL_MS, UNREAD_STALE_MS } from "@/lib/notifications/rules";

/** Section 9: a fetched list counts as fresh for 30 s. */
const LIST_STALE_MS = 30_000;

type Freshness = {
  /** Data older than this is fetched again when the window regains focus or the tab is shown. */
  staleMs: number;
  /** Also fetch on this interval, but only while the tab is visible (Page Visibility API). */
  pollMs?: number;
};

/**
 * Runs `refresh` now, whenever this tab marks notifications read, on return to the tab once the
 * data is stale, and on the polling interval while the tab is visible: a hidden tab sends nothing.
 * Each run gets a signal that aborts when the next run starts or the component goes away.
 */
function useFreshness(refresh: (signal: AbortSignal) => void, { staleMs, pollMs }: Freshness): void {
  // The latest callback, so a new render does not restart the timers.
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  });

  useEffect(() => {
    let fetchedAt = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    let running: AbortController | undefined;
    const run = () => {
      running?.abort();
      running = new AbortController();
      fetchedAt = Date.now();
      latest.current(running.signal);
    };
    const runIfStale = () => {
      if (document.visibilityState === "visible" && Date.now() - fetchedAt >= staleMs) run();
    };
    const schedule = () => {
      clearInterval(timer);
      timer = pollMs && document.visibilityState === "visible" ? setInterval(run, pollMs) : undefined;
    };
    const onVisibility = () => {
      runIfStale();
      schedule();
    };

    run();
    schedule();
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("focus", runIfStale);
    const unsubscribe = onNotificationsChanged(run);
    return () => {
      running?.abort();
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("focus", runIfStale);
      unsubscribe();
    };
  }, [staleMs, pollMs]);
}

/** The bell's number, polled every 10 s while the tab is visible. */
export function useUnreadCount(): number {
  const [count, setCount] = useState(0);
  useFreshness(
    (signal) => {
      fetchUnreadCount(signal).then(setCount, () => {
        // Keep the last known number; the next poll tries again.
      });
    },
    { staleMs: UNREAD_STALE_MS, pollMs: UNREAD_POLL_MS },
  );
  return count;
}

export type PageState = { status: "loading" } | { status: "error" } | { status: "ready"; page: NotificationsPage };

/**
 * One page of the list. A failed refresh keeps what is already shown; only a first load that
 * fails shows the error. Remount (change `key`) to load another page.
 */
export function useNotificationsPage(limit: number, offset: number): PageState {
  const [state, setState] = useState<PageState>({ status: "loading" });
  useFreshness(
    (signal) => {
      fetchNotifications({ limit, offset }, signal).then(
        (page) => setState({ status: "ready", page }),
        () => {
          if (!signal.aborted) setState((current) => (current.status === "ready" ? current : { status: "error" }));
        },
      );
    },
    { staleMs: LIST_STALE_MS },
  );
  return state;
}
