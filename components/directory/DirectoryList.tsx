"use client";

import { useRef, useState, type ReactNode } from "react";
import { Alert } from "@/components/ui/Alert";
import { fetchDirectory, type DirectoryPage } from "@/lib/directory/client/api";
import { DIRECTORY_TEXTS, type DirectoryFilters } from "@/lib/directory/rules";
import { CoupleCard } from "./CoupleCard";
import styles from "./DirectoryList.module.css";

/**
 * The first page's cards come rendered from the server (`children`: HTML with no card code to hydrate
 * but their 'Say hello'); 'Load more' follows the keyset cursor of the last answer and adds its cards
 * after them, each couple once.
 */
export function DirectoryList({
  filters,
  firstIds,
  nextCursor,
  children,
}: {
  filters: DirectoryFilters;
  firstIds: string[];
  nextCursor: string | null;
  children: ReactNode;
}) {
  const shownIds = useRef<Set<string>>(null);
  shownIds.current ??= new Set(firstIds);
  const [cards, setCards] = useState<DirectoryPage["data"]>([]);
  const [cursor, setCursor] = useState(nextCursor);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function loadMore() {
    if (!cursor) return;
    setBusy(true);
    setError(null);
    try {
      const next = await fetchDirectory(filters, cursor);
      const shown = shownIds.current ?? new Set<string>();
      const fresh = next.data.filter((card) => !shown.has(card.coupleId));
      for (const card of fresh) shown.add(card.coupleId);
      setCards((before) => [...before, ...fresh]);
      setCursor(next.pagination.hasMore ? next.pagination.nextCursor : null);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Could not load more couples. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <ul className={styles.grid} aria-label="Couples">
        {children}
        {cards.map((card) => (
          <CoupleCard key={card.coupleId} card={card} />
        ))}
      </ul>
      {error && <Alert tone="error">{error}</Alert>}
      {cursor && (
        <p className={styles.more}>
          <button type="button" className="button button-secondary" onClick={loadMore} disabled={busy}>
            {busy ? "Loading..." : DIRECTORY_TEXTS.loadMore}
          </button>
        </p>
      )}
    </>
  );
}
