"use client";

import type { ReactNode } from "react";
import { LoadMore } from "@/components/ui/LoadMore";
import { useLoadMore } from "@/components/ui/useLoadMore";
import { fetchDirectory } from "@/lib/directory/client/api";
import { DIRECTORY_TEXTS, type DirectoryFilters } from "@/lib/directory/rules";
import { CoupleCard } from "./CoupleCard";
import styles from "./DirectoryList.module.css";

/**
 * The first page's cards come rendered from the server (`children`: HTML with no card code to hydrate
 * but their 'Say hello'); 'Load more' adds the next pages' cards after them, each couple once.
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
  const list = useLoadMore({
    firstCursor: nextCursor,
    firstIds,
    load: (cursor) => fetchDirectory(filters, cursor),
    idOf: (card) => card.coupleId,
    failed: "Could not load more couples. Please try again.",
  });

  return (
    <>
      <ul className={styles.grid} aria-label="Couples">
        {children}
        {list.more.map((card) => (
          <CoupleCard key={card.coupleId} card={card} />
        ))}
      </ul>
      <LoadMore list={list} label={DIRECTORY_TEXTS.loadMore} className={styles.more} />
    </>
  );
}
