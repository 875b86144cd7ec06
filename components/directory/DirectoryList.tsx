"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/Alert";
import { fetchDirectory, type DirectoryPage } from "@/lib/directory/client/api";
import { DIRECTORY_TEXTS, type DirectoryFilters } from "@/lib/directory/rules";
import { CoupleCard } from "./CoupleCard";
import styles from "./DirectoryList.module.css";

/** The cards of a wide first screen: their photos load at once, the rest as they scroll in. */
const EAGER_CARDS = 4;

/** The first page comes with the HTML; 'Load more' follows the keyset cursor of the last answer. */
export function DirectoryList({ filters, first }: { filters: DirectoryFilters; first: DirectoryPage }) {
  const [cards, setCards] = useState(first.data);
  const [cursor, setCursor] = useState(first.pagination.hasMore ? first.pagination.nextCursor : null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function loadMore() {
    if (!cursor) return;
    setBusy(true);
    setError(null);
    try {
      const next = await fetchDirectory(filters, cursor);
      setCards((shown) => [...shown, ...next.data.filter((card) => !shown.some((old) => old.coupleId === card.coupleId))]);
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
        {cards.map((card, index) => (
          <CoupleCard key={card.coupleId} card={card} eager={index < EAGER_CARDS} first={index === 0} />
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
