"use client";

import Link from "next/link";
import { LoadMore } from "@/components/ui/LoadMore";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { useLoadMore } from "@/components/ui/useLoadMore";
import { nextCursorOf, type KeysetPage } from "@/lib/pagination/page";
import { heldCouplesPage } from "@/lib/safety/client/api";
import { countText } from "@/lib/safety/rules";
import type { HeldCouple } from "@/lib/safety/spam";
import styles from "./Moderation.module.css";

/**
 * The couples whose hellos the spam rule held, oldest first, one row per couple, with the shared
 * 'Load more'. Each hello is delivered or dropped on the couple's record; a couple with none left
 * leaves the list (the decision revalidates this page). A couple is one row however its place
 * moved meanwhile (keyed by the couple).
 */
export function HeldCouples({ page }: { page: KeysetPage<HeldCouple> }) {
  const { attachList, ...list } = useLoadMore({
    firstCursor: nextCursorOf(page),
    firstIds: page.data.map((couple) => couple.coupleId),
    load: heldCouplesPage,
    idOf: (couple) => couple.coupleId,
    failed: "Could not load more held hellos. Please try again.",
  });
  const held = [...page.data, ...list.more];
  return (
    <>
      <h2>Held hellos</h2>
      {held.length === 0 && !list.cursor ? (
        <p className="muted">No hellos held.</p>
      ) : (
        <ul className={styles.list} ref={attachList}>
          {held.map((couple) => (
            <li key={couple.coupleId} className="card">
              <p>
                <Link href={`/moderation/couples/${encodeURIComponent(couple.coupleId)}`} className="inline-target">
                  {couple.coupleName}
                </Link>
                : {countText(couple.held, couple.capped)} held since <RelativeTime at={couple.since} />
              </p>
              <p className={styles.note}>{couple.note}</p>
            </li>
          ))}
        </ul>
      )}
      <LoadMore list={list} />
    </>
  );
}
