"use client";

import Link from "next/link";
import { Field } from "@/components/ui/Field";
import { LoadMore } from "@/components/ui/LoadMore";
import { SelectField } from "@/components/ui/SelectField";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { useLoadMore } from "@/components/ui/useLoadMore";
import { nextCursorOf, type KeysetPage } from "@/lib/pagination/page";
import { moderationLogPage } from "@/lib/safety/client/api";
import type { LogRow } from "@/lib/safety/moderation-log";
import { guidelineLabel, LOG_ACTIONS, logActionLabel } from "@/lib/safety/rules";
import { refusalLabel } from "@/lib/verification/rules";
import styles from "./Moderation.module.css";

type Filters = { moderator: string; couple: string; action: string };

const ACTION_OPTIONS = [
  { value: "", label: "Any action" },
  ...LOG_ACTIONS.map((action) => ({ value: action, label: logActionLabel(action) })),
];

/** Who acted when no moderator did: a role changes from the command line (admin:grant, moderator:grant), the rest by the spam rules. */

const unattended = (action: string) => (action === "role_granted" || action === "role_revoked" ? "the command line" : "the spam rules");

function Entry({ row }: { row: LogRow }) {
  return (
    <li className="card">
      <p>
        <strong>{logActionLabel(row.action)}</strong> by {row.moderator ? row.moderator.firstName : unattended(row.action)}
        {row.couple && (
          <>
            {" "}
            ·{" "}
            <Link href={`/moderation/couples/${encodeURIComponent(row.couple.id)}`} className="inline-target">
              {row.couple.coupleName}
            </Link>
          </>
        )}{" "}
        · <RelativeTime at={row.createdAt} />
      </p>
      {row.target && (
        <p className={styles.muted}>
          On a {row.target.type} ({row.target.id})
        </p>
      )}
      {row.reason && <p>Reason: {row.action === "photo_refused" ? refusalLabel(row.reason) : guidelineLabel(row.reason)}</p>}
      {row.note && <p className={styles.note}>Note: {row.note}</p>}
    </li>
  );
}

/** The log with its filters (a plain GET form, so a filtered log is a link) and 'Load more'. */
export function ModerationLog({
  page,
  team,
  filters,
}: {
  page: KeysetPage<LogRow>;
  team: { userId: string; name: string }[];
  filters: Filters;
}) {
  const query = new URLSearchParams(Object.entries(filters).filter(([, value]) => value !== "")).toString();
  const { attachList, ...list } = useLoadMore({
    firstCursor: nextCursorOf(page),
    firstIds: page.data.map((row) => row.id),
    load: (cursor) => moderationLogPage(query, cursor),
    idOf: (row) => row.id,
    failed: "Could not load more of the log. Please try again.",
  });
  return (
    <>
      <form method="get" className={styles.filters} aria-label="Filter the log">
        <SelectField
          label="Moderator"
          name="moderator"
          defaultValue={filters.moderator}
          options={[{ value: "", label: "Anyone" }, ...team.map((person) => ({ value: person.userId, label: person.name }))]}
        />
        <SelectField label="Action" name="action" defaultValue={filters.action} options={ACTION_OPTIONS} />
        <Field label="Couple id" name="couple" defaultValue={filters.couple} autoComplete="off" />
        <button type="submit" className="button button-secondary">
          Filter
        </button>
      </form>
      {page.data.length === 0 ? (
        <p>Nothing in the log for these filters.</p>
      ) : (
        <ul className={styles.list} ref={attachList}>
          {[...page.data, ...list.more].map((row) => (
            <Entry key={row.id} row={row} />
          ))}
        </ul>
      )}
      <LoadMore list={list} />
    </>
  );
}
