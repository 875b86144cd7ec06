"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { unblockCoupleAction } from "@/app/(app)/settings/actions";
import { FacePhoto } from "@/components/ui/FacePhoto";
import { LoadMore } from "@/components/ui/LoadMore";
import { useLoadMore } from "@/components/ui/useLoadMore";
import { nextCursorOf, type KeysetPage } from "@/lib/pagination/page";
import type { BlockedCouple } from "@/lib/safety/block-list";
import { blockedCouplesPage } from "@/lib/settings/client/api";
import styles from "./settings.module.css";
import { StatusLine } from "./StatusLine";
import { reach } from "@/lib/transport/actions";

/** The couples this couple blocked, newest first, each with 'Unblock', with the shared 'Load more'. */
export function BlockedCouples({ page }: { page: KeysetPage<BlockedCouple> }) {
  const { attachList, ...list } = useLoadMore({
    firstCursor: nextCursorOf(page),
    firstIds: page.data.map((couple) => couple.coupleId),
    load: blockedCouplesPage,
    idOf: (couple) => couple.coupleId,
    failed: "Could not load more blocked couples. Please try again.",
  });
  // Unblocked here: gone from the list, whichever page showed them (the pages after stay where they were).
  const [unblocked, setUnblocked] = useState<ReadonlySet<string>>(new Set());
  const blocked = [...page.data, ...list.more].filter((couple) => !unblocked.has(couple.coupleId));
  const [busy, setBusy] = useState<string | null>(null);
  const [status, setStatus] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const unblock = async (couple: BlockedCouple) => {
    setBusy(couple.coupleId);
    setStatus(null);
    const result = await reach(() => unblockCoupleAction(couple.coupleId));
    setBusy(null);
    if (!result.ok) return setStatus({ tone: "error", text: result.message });
    setUnblocked((gone) => new Set(gone).add(couple.coupleId));
    setStatus({ tone: "success", text: `${couple.coupleName} is no longer blocked.` });
    // The button that had focus is gone: continue from the section's heading.
    heading.current?.focus();
  };

  return (
    <section className={styles.section} aria-labelledby="blocked-title">
      <h2 id="blocked-title" ref={heading} tabIndex={-1}>
        Couples you blocked
      </h2>
      <p className="field-hint">
        You and a blocked couple don&apos;t see each other&apos;s profiles, places, posts or replies, and can&apos;t mention or say hello to
        each other. A conversation between you has ended: they are not told you blocked them, they read &lsquo;This conversation has
        ended.&rsquo; Unblocking lets you see each other again, and either couple can say hello again.
      </p>
      {blocked.length === 0 && !list.cursor ? (
        <p>You haven&apos;t blocked anyone.</p>
      ) : (
        <ul className="stack" ref={attachList}>
          {blocked.map((couple) => (
            <li key={couple.coupleId} className={styles.listItem}>
              <span className={styles.who}>
                <FacePhoto src={couple.coupleImageUrl} size={48} className={styles.avatar} />
                <span>
                  <strong>{couple.coupleName}</strong>
                  <br />
                  <span className="muted">
                    Blocked {new Date(couple.blockedAt).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric" })}
                  </span>
                </span>
              </span>
              <button
                type="button"
                className="button button-secondary"
                disabled={busy !== null}
                onClick={() => void unblock(couple)}
                aria-label={`Unblock ${couple.coupleName}`}
              >
                {busy === couple.coupleId ? "Unblocking..." : "Unblock"}
              </button>
            </li>
          ))}
        </ul>
      )}
      <LoadMore list={list} />
      {/* An unblock removes its row, so the line need not be kept for it: no gap above the hint while empty. */}
      <StatusLine status={status} keepLine={false} />
      <p className="field-hint">
        To block a couple, open their profile (from the <Link href="/directory">directory</Link>) and choose &apos;Block&apos; in its ⋯
        menu, or in the ⋯ menu of one of their posts or replies in the <Link href="/forum">forum</Link>.
      </p>
    </section>
  );
}
