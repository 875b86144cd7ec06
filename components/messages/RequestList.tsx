"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { ItemMenu } from "@/components/safety/ItemMenu";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { Alert } from "@/components/ui/Alert";
import { LoadMore } from "@/components/ui/LoadMore";
import { useLoadMore } from "@/components/ui/useLoadMore";
import { invalidate, type LiveState } from "@/lib/live/client/use-live";
import { acceptRequest, declineRequest, fetchIncomingRequests, REQUESTS_KEY, type RequestsPage } from "@/lib/messages/client/api";
import { nextCursorOf } from "@/lib/pagination/page";
import { approvalLine, INBOX_TEXTS, type ConnectionRequest } from "@/lib/messages/display";
import { CoupleFace } from "./CoupleFace";
import styles from "./RequestList.module.css";

/** Who reads the requests: a person of the couple they were sent to. */
export type RequestViewer = { userId: string; coupleId: string };

/**
 * One request to this couple: who says hello (face first), their note, 'Accept' or 'Decline', and
 * a menu to report the hello or block its couple (a block takes the hello away, as a decline does).
 */
function RequestCard({ request, viewer, onDeclined }: { request: ConnectionRequest; viewer: RequestViewer; onDeclined(): void }) {
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
      if (!accept) {
        await declineRequest(request.id);
        return onDeclined();
      }
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
              {/* Not prefetched: a profile is rendered per request (CoupleCard's rule). */}
              <Link href={`/profile/${encodeURIComponent(couple.id)}`} prefetch={false}>
                {couple.coupleName}
              </Link>
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
          <div className={styles.menu}>
            <ItemMenu
              label={`More actions for the hello from ${couple.coupleName}`}
              targetType="request"
              targetId={request.id}
              author={{ userId: null, coupleId: couple.id, coupleName: couple.coupleName }}
              viewer={viewer}
              onBlocked={() => {
                onDeclined();
                invalidate(REQUESTS_KEY);
              }}
            />
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

/**
 * The open requests to this couple, newest first, or what to expect when there are none: the first
 * page stays current through the live hook, 'Load more' follows the keyset cursor, and each live
 * read of the first page reads the loaded ones again (a hello answered further down leaves, a
 * partner's acceptance shows). A declined request leaves
 * the list with its buttons: the keyboard lands on the next request's name (the one before when it
 * was the last), or on the words that say none are left.
 */
export function RequestList({ state, viewer }: { state: LiveState<RequestsPage>; viewer: RequestViewer }) {
  const declined = useRef<{ id: string; next: string | null } | null>(null);
  const none = useRef<HTMLParagraphElement>(null);
  const page = state.status === "ready" ? state.value : null;
  const { attachList, ...list } = useLoadMore({
    firstCursor: page ? nextCursorOf(page) : null,
    firstIds: page ? page.data.map((request) => request.id) : [],
    load: (cursor) => fetchIncomingRequests(cursor),
    idOf: (request) => request.id,
    failed: "Could not load more requests",
    liveKey: REQUESTS_KEY,
  });
  const requests = page ? [...page.data, ...list.more] : null;
  const shownKey = requests?.map((request) => request.id).join(" ");
  useEffect(() => {
    const gone = declined.current;
    const shown = shownKey?.split(" ");
    if (!gone || !shown || shown.includes(gone.id)) return;
    declined.current = null;
    const next = gone.next ? document.getElementById(`request-${gone.next}`)?.querySelector("a") : null;
    (next ?? none.current)?.focus();
  }, [shownKey]);

  if (state.status === "loading") return <p className={styles.empty}>Loading requests...</p>;
  if (state.status === "error" || !requests) return <Alert tone="error">Could not load your requests. Please try again.</Alert>;
  if (requests.length === 0)
    return (
      <p ref={none} tabIndex={-1} className={styles.empty}>
        {INBOX_TEXTS.noRequests}
      </p>
    );
  const nextAfter = (index: number) => (requests[index + 1] ?? requests[index - 1])?.id ?? null;
  return (
    <>
      <ul className={styles.list} aria-label="Requests" ref={attachList}>
        {requests.map((request, index) => (
          <RequestCard
            key={request.id}
            request={request}
            viewer={viewer}
            onDeclined={() => {
              declined.current = { id: request.id, next: nextAfter(index) };
            }}
          />
        ))}
      </ul>
      <LoadMore list={list} className={styles.more} />
    </>
  );
}
