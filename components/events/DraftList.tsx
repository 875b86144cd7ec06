"use client";

import { LoadMore } from "@/components/ui/LoadMore";
import { useLoadMore } from "@/components/ui/useLoadMore";
import { draftsPage } from "@/lib/events/client/api";
import { formatPrice } from "@/lib/events/rules";
import type { EventDraft } from "@/lib/events/service";
import { nextCursorOf, type KeysetPage } from "@/lib/pagination/page";
import styles from "./events.module.css";

const when = (iso: string) =>
  new Intl.DateTimeFormat("en-GB", { dateStyle: "full", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso)) + " UTC";

/** The couple's drafts, newest first, with the shared 'Load more'. */
export function DraftList({ page }: { page: KeysetPage<EventDraft> }) {
  const { attachList, ...list } = useLoadMore({
    firstCursor: nextCursorOf(page),
    firstIds: page.data.map((draft) => draft.id),
    load: draftsPage,
    idOf: (draft) => draft.id,
    failed: "Could not load more drafts. Please try again.",
  });
  return (
    <>
      <ul className="stack" ref={attachList}>
        {[...page.data, ...list.more].map((draft) => (
          <li key={draft.id} className={styles.draft}>
            <h3>{draft.title}</h3>
            <p className="muted">
              {when(draft.startsAt)} · {draft.place} · {draft.capacity} couples · {formatPrice(draft.priceCents, draft.currency)}
            </p>
            <p>{draft.description}</p>
          </li>
        ))}
      </ul>
      <LoadMore list={list} />
    </>
  );
}
