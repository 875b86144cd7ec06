"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { Alert } from "@/components/ui/Alert";
import type { LiveState } from "@/lib/live/client/use-live";
import { acceptRequest, declineRequest } from "@/lib/messages/client/api";
import { approvalLine, INBOX_TEXTS, type ConnectionRequest } from "@/lib/messages/display";
import { CoupleFace } from "./CoupleFace";
import styles from "./RequestList.module.css";

/** One request to this couple: who says hello (face first), their note, and 'Accept' or 'Decline'. */
function RequestCard({ request }: { request: ConnectionRequest }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [waitingFor, setWaitingFor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { couple } = request;
  const approvals = approvalLine(request.approvals);

  async function answer(accept: boolean) {
    setBusy(true);
    setError(null);
    try {
      if (!accept) return await declineRequest(request.id);
      const answered = await acceptRequest(request.id);
      if (answered.status === "accepted") router.push(`/messages/${encodeURIComponent(answered.conversationId)}`);
      else setWaitingFor(answered.waitingFor);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Could not answer this request");
    } finally {
      setBusy(false);
    }
  }

  const headingId = `request-${request.id}`;
  return (
    <li className={styles.card}>
      <article aria-labelledby={headingId}>
        <div className={styles.head}>
          <CoupleFace url={couple.profileImageUrl} size={56} />
          <div className={styles.who}>
            <h2 id={headingId} className={styles.name}>
              <Link href={`/profile/${encodeURIComponent(couple.id)}`}>{couple.coupleName}</Link>
            </h2>
            <p className={styles.meta}>
              {[couple.distanceBand, couple.interestsInCommon?.length ? `In common: ${couple.interestsInCommon.join(", ")}` : null]
                .filter(Boolean)
                .join(" · ")}
            </p>
            <p className={styles.meta}>
              <RelativeTime at={request.createdAt} />
            </p>
          </div>
        </div>
        <p className={styles.note}>{request.note}</p>
        {error && <Alert tone="error">{error}</Alert>}
        {waitingFor ? (
          <p role="status" className={styles.waiting}>
            You accepted. Waiting for {waitingFor} to accept too.
          </p>
        ) : (
          <>
            {approvals && <p className={styles.waiting}>{approvals}</p>}
            <div className="form-actions">
              <button type="button" className="button button-primary" disabled={busy} onClick={() => answer(true)}>
                Accept
              </button>
              <button type="button" className="button button-secondary" disabled={busy} onClick={() => answer(false)}>
                Decline
              </button>
            </div>
          </>
        )}
      </article>
    </li>
  );
}

/** The open requests to this couple, newest first, or what to expect when there are none. */
export function RequestList({ state }: { state: LiveState<ConnectionRequest[]> }) {
  if (state.status === "loading") return <p className={styles.empty}>Loading requests...</p>;
  if (state.status === "error") return <Alert tone="error">Could not load your requests. Please try again.</Alert>;
  if (state.value.length === 0) return <p className={styles.empty}>{INBOX_TEXTS.noRequests}</p>;
  return (
    <ul className={styles.list} aria-label="Requests">
      {state.value.map((request) => (
        <RequestCard key={request.id} request={request} />
      ))}
    </ul>
  );
}
