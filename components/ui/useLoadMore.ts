"use client";

import { useEffect, useEffectEvent, useRef, useState } from "react";
import {
  leftTheFirstPage,
  newRowsOf,
  readBelowFirst,
  readLoadedAgain,
  withGapRead,
  withLoadedAgain,
  withNextPage,
  type Loaded,
} from "@/lib/pagination/load-more";
import { onLiveRead } from "@/lib/live/client/use-live";
import type { KeysetPage } from "@/lib/pagination/page";

type LoadMoreOptions<T> = {
  /** The cursor after the first page (`nextCursorOf` it); null when the first page was the whole list. */
  firstCursor: string | null;
  /** The ids the first page shows (it may change, as a live first page does): a loaded row among them is shown there only. */
  firstIds: readonly string[];
  /** The page after `cursor`, through the area's client/api.ts. */
  load(cursor: string): Promise<KeysetPage<T>>;
  idOf(item: T): string;
  /** What the list says when a page fails with no message of its own. */
  failed: string;
  /**
   * The live key the first page is shown under (lib/live/client/use-live.ts), when rows below it
   * change with it (the hellos waiting: one answered further down, a partner's acceptance): each
   * time the live feed reads it again, the loaded rows are read again too.
   */
  liveKey?: string;
};

/**
 * 'Load more' of a keyset list (lib/pagination/page.ts): the first page is the caller's (rendered
 * by the server or kept current by the live hook); each click asks for the page after the last
 * cursor and keeps the rows below it. A row is shown once, at its first place: one that moved up
 * onto the first page (new activity) or came again on a later page is left out. When a row leaves
 * a changed first page while more is loaded, the rows just below it are read again, so one pushed
 * down is shown there and one gone stays gone (lib/pagination/load-more.ts). Each time the live
 * feed of `liveKey` reads the first page again, rows below it may have changed or left the list:
 * the loaded rows are read again.
 */
export function useLoadMore<T>({ firstCursor, firstIds, load, idOf, failed, liveKey }: LoadMoreOptions<T>) {
  // The loaded rows, and how many the last page added (null: none loaded yet) for LoadMore's
  // status: one state, so a page is counted against the rows shown when it came, a gap's read included.
  const [{ loaded, added }, setShown] = useState<{ loaded: Loaded<T> | null; added: number | null }>({ loaded: null, added: null });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The list's element (its rows its children), for LoadMore to move focus into; the caller puts
  // attachList on it as its ref (apart from the list: a ref's holder cannot be read while rendering).
  const [listElement, attachList] = useState<HTMLElement | null>(null);
  const cursor = loaded ? loaded.cursor : firstCursor;
  const onFirst = new Set(firstIds);
  const more = (loaded?.items ?? []).filter((item) => !onFirst.has(idOf(item)));

  // The first page the loaded rows were last made whole against; it moves on only when a gap's
  // read is applied (or nothing is loaded), so a read overtaken by a newer one or failed is not lost.
  const reconciled = useRef<readonly string[]>(firstIds);
  const reads = useRef(0);
  // Reads the rows below the first page again (`read`: what to make of the loaded rows then), the
  // first page being `now`; a newer read wins.
  const readAgain = (
    now: readonly string[],
    shown: Loaded<T>,
    read: (shown: Loaded<T>, firstCursor: string) => Promise<(latest: Loaded<T>) => Loaded<T>>,
    ended?: () => void,
  ) => {
    const reading = ++reads.current;
    const settle = (apply: (shown: Loaded<T>) => Loaded<T> | null) => {
      if (reading !== reads.current) return;
      reconciled.current = now;
      // Nothing loaded stays below the first page: the status has nothing left to say of a page.
      setShown((latest) => {
        const loaded = latest.loaded && apply(latest.loaded);
        return { loaded, added: loaded ? latest.added : null };
      });
    };
    // The list is one page now: what was loaded below it is gone.
    if (!firstCursor) {
      settle(() => null);
      return ended?.();
    }
    read(shown, firstCursor)
      .then(settle)
      .catch(() => {
        // Nothing applied: the next change of the first page reads the gap again.
      })
      .finally(ended);
  };
  const readGap = useEffectEvent((now: readonly string[]) => {
    if (!loaded) reconciled.current = now;
    if (!loaded || !leftTheFirstPage(reconciled.current, now)) return;
    readAgain(now, loaded, async (shown, after) => {
      const { read, next } = await readBelowFirst(shown, after, load, idOf);
      return (latest) => withGapRead(latest, read, next, idOf);
    });
  });
  const firstKey = firstIds.join(" ");
  useEffect(() => readGap(firstKey === "" ? [] : firstKey.split(" ")), [firstKey]);
  // How many times the live feed read the first page again; each asks for the loaded rows' read.
  const [liveReads, setLiveReads] = useState(0);
  useEffect(() => (liveKey ? onLiveRead(liveKey, () => setLiveReads((reads) => reads + 1)) : undefined), [liveKey]);
  // The live read the loaded rows were last read again at; `recount` asks for another after it: a
  // page asked for before a live read may hold a row as it was before it (a hello withdrawn or
  // accepted by a partner while it was read), and it came after the read the live one asked for.
  const counted = useRef(liveReads);
  const [recount, setRecount] = useState(0);
  // One read of the loaded rows at a time (each reads every loaded page): the reads asked for while
  // one is under way are one more after it, so a lively feed or a slow server never piles them up.
  const rereading = useRef(false);
  const rereadOwed = useRef(false);
  const rereadEnded = () => {
    rereading.current = false;
    if (!rereadOwed.current) return;
    rereadOwed.current = false;
    setRecount((reads) => reads + 1);
  };
  const readLoaded = useEffectEvent(() => {
    if (rereading.current) {
      rereadOwed.current = true;
      return;
    }
    counted.current = liveReads;
    if (!loaded) return;
    rereading.current = true;
    // The read replaces the loaded rows; a page 'Load more' added meanwhile stays after them.
    readAgain(
      firstIds,
      loaded,
      async (shown, after) => {
        const again = await readLoadedAgain(shown, after, load, idOf);
        return (latest) => withLoadedAgain(latest, shown, again, idOf);
      },
      rereadEnded,
    );
  });
  useEffect(() => readLoaded(), [liveReads, recount]);

  async function loadMore() {
    if (!cursor) return;
    setBusy(true);
    setError(null);
    const asked = counted.current;
    try {
      const next = await load(cursor);
      setShown((latest) => ({
        loaded: withNextPage(latest.loaded, next, idOf),
        added: newRowsOf(latest.loaded, next, firstIds, idOf),
      }));
      if (counted.current !== asked) setRecount((reads) => reads + 1);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : failed);
    } finally {
      setBusy(false);
    }
  }

  return { more, cursor, busy, error, added, loadMore, attachList, listElement };
}
