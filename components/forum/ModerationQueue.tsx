"use client";

import Link from "next/link";
import { useState } from "react";
import { Alert } from "@/components/ui/Alert";
import type { OpenReport } from "@/lib/forum/reports";
import { REPORT_REASONS } from "@/lib/forum/rules";
import type { ModerationAction } from "@/lib/safety/rules";
import { openReportContextAction, resolveReportAction } from "@/app/(app)/moderation/actions";
import type { MessageItem } from "@/lib/messages/queries";
import { RelativeTime } from "@/components/ui/RelativeTime";
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

/** The open reports, oldest first; each decision applies to every open report of the same target. A reported couple or hello offers the couple's actions instead of Remove. */
export function ModerationQueue({ reports }: { reports: OpenReport[] }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function decide(report: OpenReport, decision: ModerationAction) {
    setBusy(report.id);
    setError(null);
    const result = await reach(() => resolveReportAction(report.id, decision));
    if (!result.ok) setError(result.message ?? "Could not save the decision. Please try again.");
    setBusy(null);
  }

  if (reports.length === 0) return <p className="muted">No open reports. All clear!</p>;
  return (
    <>
      {error && <Alert tone="error">{error}</Alert>}
      <ul className={styles.list}>
        {reports.map((report) => {
          const href = contentHref(report);
          return (
            <li key={report.id} className="card">
              <p>
                <strong>{reasonLabel(report.reason)}</strong> · a {targetLabel(report.targetType)} by{" "}
                {report.content?.coupleName ?? "a couple"} · reported by {report.reporter.firstName} <RelativeTime at={report.createdAt} />
              </p>
              {report.note && <p>Note: {report.note}</p>}
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
    </>
  );
}
