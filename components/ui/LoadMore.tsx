"use client";

import { useEffect, useRef, type MouseEvent } from "react";
import { Alert } from "./Alert";
import { firstFocusable } from "./focusable";

/**
 * What a keyboard user's focus lands on when the last page takes the button away: the first row it
 * brought, else the list. Only focus the removal dropped (to the body) moves: one the user put
 * elsewhere while the page loaded stays there.
 */
export function focusAfter(list: HTMLElement | null, lastBefore: Element | null) {
  const active = document.activeElement;
  if (!list || (active && active !== document.body)) return;
  const first = (lastBefore ? lastBefore.nextElementSibling : list.firstElementChild) as HTMLElement | null;
  const control = first ? firstFocusable(first) : null;
  const target = control ?? first ?? list;
  // A row or list is not focusable of itself: focused from script only, never a Tab stop.
  if (!control) target.tabIndex = -1;
  target.focus();
}

/**
 * Under a keyset list (components/ui/useLoadMore.ts): the last page's error, a polite status saying
 * what a page brought, and the button while there is more. While a page loads the button stays
 * focusable (aria-disabled), and when the last page removes it the focus it had moves to the first
 * row that page brought, so a keyboard user keeps their place (WCAG 2.4.3).
 */
export function LoadMore({
  list,
  label = "Load more",
  className,
}: {
  list: {
    cursor: string | null;
    busy: boolean;
    error: string | null;
    added: number | null;
    loadMore(): Promise<void>;
    listElement: HTMLElement | null;
  };
  label?: string;
  /** The list's own spacing around the button. */
  className?: string;
}) {
  // Set when the focused button asked for a page: the list's last row then (null: it had none).
  const lastBefore = useRef<Element | null | undefined>(undefined);
  const { busy, cursor, listElement } = list;
  useEffect(() => {
    if (busy || lastBefore.current === undefined) return;
    if (!cursor) focusAfter(listElement, lastBefore.current);
    lastBefore.current = undefined;
  }, [busy, cursor, listElement]);

  function loadMore(event: MouseEvent<HTMLButtonElement>) {
    if (busy) return;
    if (event.currentTarget === document.activeElement) lastBefore.current = listElement?.lastElementChild ?? null;
    void list.loadMore();
  }

  return (
    <>
      {list.error && <Alert tone="error">{list.error}</Alert>}
      {/* Empty while a page loads: a live region tells a change, and pages of one size read alike. */}
      <p className="visually-hidden" role="status">
        {!busy && list.added !== null && `${list.added} more shown${cursor ? "" : "; that is the end of the list"}`}
      </p>
      {cursor && (
        <p className={className}>
          <button type="button" className="button button-secondary" onClick={loadMore} aria-disabled={busy || undefined}>
            {busy ? "Loading..." : label}
          </button>
        </p>
      )}
    </>
  );
}
