"use client";

import { LoadMore } from "@/components/ui/LoadMore";
import { useLoadMore } from "@/components/ui/useLoadMore";
import { fetchDirectory } from "@/lib/directory/client/api";
import type { ShownDirectoryCard } from "@/lib/directory/queries";
import { DIRECTORY_TEXTS, type DirectoryFilters } from "@/lib/directory/rules";
import { CoupleCard } from "./CoupleCard";
import styles from "./DirectoryList.module.css";

/** The cards of a wide first screen: their photos load at once, the rest as they scroll in. */
const EAGER_CARDS = 4;

/**
 * The first page's cards come as data beside the server's HTML (in the page's flight a card's data
 * is about a third of its rendered elements); 'Load more' adds the next pages' cards after them, each couple once.
 */
export function DirectoryList({
  filters,
  first,
  nextCursor,
}: {
  filters: DirectoryFilters;
  first: ShownDirectoryCard[];
  nextCursor: string | null;
}) {
  const { attachList, ...list } = useLoadMore({
    firstCursor: nextCursor,
    firstIds: first.map((card) => card.coupleId),
    load: (cursor) => fetchDirectory(filters, cursor),
    idOf: (card) => card.coupleId,
    failed: "Could not load more couples. Please try again.",
  });

  return (
    <>
      <ul className={styles.grid} aria-label="Couples" ref={attachList}>
        {[...first, ...list.more].map((card, index) => (
          <CoupleCard key={card.coupleId} card={card} eager={index < EAGER_CARDS} first={index === 0} />
        ))}
      </ul>
      <LoadMore list={list} label={DIRECTORY_TEXTS.loadMore} className={styles.more} />
    </>
  );
}
