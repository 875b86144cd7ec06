"use client";

import Link from "next/link";
import { useState } from "react";
import { Alert } from "@/components/ui/Alert";
import { LoadMore } from "@/components/ui/LoadMore";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { useLoadMore } from "@/components/ui/useLoadMore";
import { nextCursorOf, type KeysetPage } from "@/lib/pagination/page";
import { openAppealsPage } from "@/lib/safety/client/api";
import { decideAppealAction } from "@/app/(app)/moderation/actions";
import type { OpenAppeal } from "@/lib/safety/appeals";
import { guidelineLabel } from "@/lib/safety/rules";
import styles from "./Moderation.module.css";
import { reach } from "@/lib/transport/actions";

/**
 * The open appeals, oldest first, with the shared 'Load more' (grant lifts the action, refuse
 * leaves it; a decided one leaves the list).
 */
export function AppealsQueue({ page, viewerId }: { page: KeysetPage<OpenAppeal>; viewerId: string }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [decided, setDecided] = useState<Set<string>>(new Set());
  const { attachList, ...list } = useLoadMore({
    firstCursor: nextCursorOf(page),
    firstIds: page.data.map((appeal) => appeal.id),
    load: openAppealsPage,
    idOf: (appeal) => appeal.id,
    failed: "Could not load more appeals. Please try again.",
  });
  async function decide(appeal: OpenAppeal, decision: "grant" | "refuse") {
    setBusy(appeal.id);
    setError(null);
    const result = await reach(() => decideAppealAction(appeal.id, decision));
    if (result.ok) setDecided((before) => new Set(before).add(appeal.id));
    else setError(result.message);
    setBusy(null);
  }
  const appeals = [...page.data, ...list.more].filter((appeal) => !decided.has(appeal.id));
  return (
    <>
      <h2>Appeals</h2>
      {error && <Alert tone="error">{error}</Alert>}
      {appeals.length === 0 && !list.cursor ? (
        <p className="muted">No open appeals.</p>
      ) : (
        <ul className={styles.list} ref={attachList}>
          {appeals.map((appeal) => (
            <li key={appeal.id} className="card">
              <p>
                <Link href={`/moderation/couples/${encodeURIComponent(appeal.couple.id)}`} className="inline-target">
                  {appeal.couple.coupleName}
                </Link>{" "}
                appeals a {appeal.sanction.kind} for &lsquo;{guidelineLabel(appeal.sanction.reason)}&rsquo; ·{" "}
                <RelativeTime at={appeal.createdAt} />
              </p>
              <p className={styles.note}>{appeal.body}</p>
              {appeal.sanction.createdByUserId === viewerId && (
                <p className={styles.muted}>You took this action: another moderator decides.</p>
              )}
              <div className="form-actions">
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={busy === appeal.id}
                  onClick={() => decide(appeal, "grant")}
                >
                  Grant (lift)
                </button>
                <button
                  type="button"
                  className="button button-danger"
                  disabled={busy === appeal.id}
                  onClick={() => decide(appeal, "refuse")}
                >
                  Refuse
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <LoadMore list={list} />
    </>
  );
}
