"use client";

import Link from "next/link";
import { useState } from "react";
import { Alert } from "@/components/ui/Alert";
import type { OpenReport } from "@/lib/forum/reports";
import { REPORT_REASONS } from "@/lib/forum/rules";
import { countText, reportedByText, type ModerationAction } from "@/lib/safety/rules";
import { openReportContextAction, resolveReportAction } from "@/app/(app)/moderation/actions";
import type { MessageItem } from "@/lib/messages/queries";
import { LoadMore } from "@/components/ui/LoadMore";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { useLoadMore } from "@/components/ui/useLoadMore";
import { nextCursorOf, type KeysetPage } from "@/lib/pagination/page";
import { moderationQueuePage } from "@/lib/safety/client/api";
import styles from "./ModerationQueue.module.css";
import { reach } from "@/lib/transport/actions";

const reasonLabel = (reason: string) => REPORT_REASONS.find((r) => r.value === reason)?.label ?? reason;

/** A report's target as the queue names it ('a hello by ...': what the inbox calls a request). */
const targetLabel = (type: OpenReport["targetType"]) => (type === "request" ? "hello" : type);

/** Removed, a post, reply or message reads 'Removed by a moderator' (a plan is cancelled); a couple and a hello are acted on from the couple's page. */
const removable = (type: OpenReport["targetType"]) => type !== "couple" && type !== "request";

function contentHref(report: OpenReport): string | null {
  const content = report.content;
  if (!content) return null;
  if (report.targetType === "couple") return content.coupleId === null ? null : `/profile/${encodeURIComponent(content.coupleId)}`;
  if (!content.postId) return null;
  const post = `/forum/post/${encodeURIComponent(content.postId)}`;
  return report.targetType === "reply" ? `${post}#reply-${encodeURIComponent(report.targetId)}` : post;
}

/** A reported message's ten before it, opened on demand (the opening is on the record). */
function MessageContext({ reportId }: { reportId: string }) {
  const [messages, setMessages] = useState<MessageItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function open() {
    setError(null);
    const result = await reach(() => openReportContextAction(reportId));
    if (result.ok) setMessages(result.messages);
    else setError(result.message);
  }
  if (!messages)
    return (
      <>
        {error && <Alert tone="error">{error}</Alert>}
        <button type="button" className="button button-secondary" onClick={open}>
          Open the ten messages before (recorded)
        </button>
      </>
    );
  return (
    <ol className={styles.content} aria-label="The conversation before the reported message">
      {messages.map((message) => (
        <li key={message.id}>
          <strong>{message.author.firstName}</strong> ({message.author.coupleName}): {message.body ?? "This message was deleted"}
        </li>
      ))}
    </ol>
  );
}

/** Under the words as reported: what the content says now, where its author edited or deleted it since. */
function ChangedSince({ now }: { now: NonNullable<NonNullable<OpenReport["content"]>["changedSince"]> }) {
  if (now.body === null) return <p className={styles.gone}>Deleted by its author since it was reported.</p>;
  return (
    <>
      <p className={styles.gone}>Edited since it was reported. It now reads:</p>
      <div className={styles.content}>
        {now.title && <strong>{now.title}</strong>}
        {now.title && "\n"}
        {now.body}
      </div>
    </>
  );
}

/**
 * A row's reasons, the most given first: one report reads as it always did ('Harassment'), several
 * counted ('Harassment (3), Spam (1)'), past the cap at least that many ('Spam (68+)').
 */
const reasonsText = (report: OpenReport) =>
  report.reasons
    .map(({ reason, count }) =>
      report.reports === 1 ? reasonLabel(reason) : `${reasonLabel(reason)} (${countText(count, report.capped)})`,
    )
    .join(", ");

/** The reporters' notes: one report's as it always read, several with who wrote each (the oldest first). */
function Notes({ report }: { report: OpenReport }) {
  if (report.reports === 1) return report.notes[0] ? <p>Note: {report.notes[0].note}</p> : null;
  if (report.notes.length === 0) return null;
  const more = report.notesTotal - report.notes.length;
  return (
    <>
      <ul className={styles.notes} aria-label="Notes from the reporters">
        {report.notes.map((note, index) => (
          <li key={index}>
            Note from {note.firstName}: {note.note}
          </li>
        ))}
      </ul>
      {more > 0 && (
        <p className="muted">
          And {countText(more, report.capped)} more {more === 1 && !report.capped ? "note" : "notes"}.
        </p>
      )}
    </>
  );
}

/**
 * The open reports, one row per reported target, oldest first, with the shared 'Load more'; each
 * decision applies to every open report of the row (a decided one leaves the list). A reported
 * couple or hello offers the couple's actions instead of Remove.
 */
export function ModerationQueue({ page }: { page: KeysetPage<OpenReport> }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [decided, setDecided] = useState<Set<string>>(new Set());
  const { attachList, ...list } = useLoadMore({
    firstCursor: nextCursorOf(page),
    firstIds: page.data.map((report) => report.id),
    load: moderationQueuePage,
    idOf: (report) => report.id,
    failed: "Could not load more reports. Please try again.",
  });

  async function decide(report: OpenReport, decision: ModerationAction) {
    setBusy(report.id);
    setError(null);
    const result = await reach(() => resolveReportAction(report.id, decision));
    if (result.ok) setDecided((before) => new Set(before).add(report.id));
    else setError(result.message ?? "Could not save the decision. Please try again.");
    setBusy(null);
  }

  const shown = [...page.data, ...list.more].filter((report) => !decided.has(report.id));
  if (shown.length === 0 && !list.cursor) return <p className="muted">No open reports. All clear!</p>;
  return (
    <>
      {error && <Alert tone="error">{error}</Alert>}
      <ul className={styles.list} ref={attachList}>
        {shown.map((report) => {
          const href = contentHref(report);
          return (
            <li key={report.id} className="card">
              <p>
                <strong>{reasonsText(report)}</strong> · a {targetLabel(report.targetType)} by {report.content?.coupleName ?? "a couple"} ·{" "}
                {reportedByText({
                  reports: report.reports,
                  couples: report.couples,
                  capped: report.capped,
                  firstReporter: report.reporter.firstName,
                })}{" "}
                <RelativeTime at={report.createdAt} />
              </p>
              <Notes report={report} />
              {report.targetType === "message" && report.content && <MessageContext reportId={report.id} />}
              {report.content ? (
                <div className={styles.content}>
                  {report.content.title && <strong>{report.content.title}</strong>}
                  {report.content.title && "\n"}
                  {report.content.body}
                </div>
              ) : (
                <p className={styles.gone}>The content no longer exists.</p>
              )}
              {report.content?.changedSince && <ChangedSince now={report.content.changedSince} />}
              <div className="form-actions">
                {href && (
                  <Link href={href} className="button button-secondary">
                    Open
                  </Link>
                )}
                {report.content?.coupleId && (
                  <Link
                    href={`/moderation/couples/${encodeURIComponent(report.content.coupleId)}?report=${encodeURIComponent(report.id)}`}
                    className="button button-secondary"
                  >
                    Act on the couple
                  </Link>
                )}
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={busy === report.id}
                  onClick={() => decide(report, "dismiss")}
                >
                  Dismiss
                </button>
                {removable(report.targetType) && (
                  <button
                    type="button"
                    className="button button-danger"
                    disabled={busy === report.id}
                    onClick={() => decide(report, "remove")}
                  >
                    Remove
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      <LoadMore list={list} />
    </>
  );
}
