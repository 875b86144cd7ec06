"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FocusEvent } from "react";
import { ItemMenu } from "@/components/safety/ItemMenu";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { Alert } from "@/components/ui/Alert";
import { firstFocusable, rowInPlaceOf } from "@/components/ui/focusable";
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
 * A hello declined or blocked says so with its buttons disabled until the list's next read takes
 * it away: answered, it cannot be answered again.
 */
function RequestCard({ request, viewer, onHeld }: { request: ConnectionRequest; viewer: RequestViewer; onHeld(): void }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [waitingFor, setWaitingFor] = useState<string | null>(null);
  const [settled, setSettled] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const status = useRef<HTMLParagraphElement>(null);
  const { couple } = request;
  const approvals = approvalLine(request.approvals);
  const answered = waitingFor ? `You accepted. Waiting for ${waitingFor} to accept too.` : settled;

  function settle(words: string) {
    setSettled(words);
    // It leaves the list next: the list moves the focus on from it then (a click gives a button no focus in some browsers).
    onHeld();
  }

  async function answer(accept: boolean) {
    setBusy(true);
    setError(null);
    try {
      if (!accept) {
        await declineRequest(request.id);
        return settle(INBOX_TEXTS.declined);
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

  // Accepted, the hello waits for the partner and its buttons go: the focus they held (or that fell
  // to the page as 'Accept' waited, disabled) goes to the words saying so, not to the page's top.
  useEffect(() => {
    if (!waitingFor) return;
    const card = status.current?.closest("li");
    const active = document.activeElement;
    if (!active || active === document.body || card?.contains(active)) status.current?.focus();
  }, [waitingFor]);

  const headingId = `request-${request.id}`;
  return (
    <li className={styles.card} onFocus={onHeld}>
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
                settle(INBOX_TEXTS.blocked);
                invalidate(REQUESTS_KEY);
              }}
            />
          </div>
        </div>
        <p className={styles.note}>{request.note}</p>
        {error && <Alert tone="error">{error}</Alert>}
        {!waitingFor && !settled && approvals && <p className={styles.waiting}>{approvals}</p>}
        {/* On the page from the first render: a screen reader tells a live region's change, not one put in with its words. */}
        <p ref={status} role="status" tabIndex={-1} className={answered ? styles.waiting : "visually-hidden"}>
          {answered}
        </p>
        {!waitingFor && (
          <div className="form-actions">
            <button type="button" className="button button-primary" disabled={busy || settled !== null} onClick={() => answer(true)}>
              Accept
            </button>
            <button type="button" className="button button-secondary" disabled={busy || settled !== null} onClick={() => answer(false)}>
              Decline
            </button>
          </div>
        )}
      </article>
    </li>
  );
}

/**
 * The open requests to this couple, newest first, or what to expect when there are none: the first
 * page stays current through the live hook, 'Load more' follows the keyset cursor, and each live
 * read of the first page reads the loaded ones again (a hello answered further down leaves, a
 * partner's acceptance shows). A request that leaves the list while it held the keyboard's focus
 * (declined here, or answered in another tab) takes its buttons with it: the focus lands on the
 * next request's name (the one before when it was the last), or on the words that say none are left.
 */
export function RequestList({ state, viewer }: { state: LiveState<RequestsPage>; viewer: RequestViewer }) {
  // The request whose card holds the focus (or was just declined or blocked here), and the requests
  // shown when the list last changed.
  const focused = useRef<string | null>(null);
  const shownBefore = useRef<string[]>([]);
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
    if (shownKey === undefined) return;
    const shown = shownKey === "" ? [] : shownKey.split(" ");
    const before = shownBefore.current;
    shownBefore.current = shown;
    const gone = focused.current;
    if (!gone || shown.includes(gone)) return;
    focused.current = null;
    // Only the focus the card's leaving dropped (to the body) moves: one the user put elsewhere stays.
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const next = rowInPlaceOf(before, shown, gone);
    const card = next ? document.getElementById(`request-${next}`)?.closest("li") : null;
    ((card && firstFocusable(card)) ?? none.current)?.focus();
  }, [shownKey]);
  // Focus leaving the list lets go of the card: for another place on the page, or for none when the
  // person clicked the page's background (what lost it is still there, enabled, and no longer the
  // document's focus, as it stays when the window loses it); not when a card taken away or a button
  // disabled dropped it.
  const onBlur = (event: FocusEvent<HTMLUListElement>) => {
    const to = event.relatedTarget;
    const from = event.target;
    const leftByPerson = to
      ? !event.currentTarget.contains(to)
      : from.isConnected && !from.matches(":disabled") && document.activeElement !== from;
    if (leftByPerson) focused.current = null;
  };

  if (state.status === "loading") return <p className={styles.empty}>Loading requests...</p>;
  if (state.status === "error" || !requests) return <Alert tone="error">Could not load your requests. Please try again.</Alert>;
  if (requests.length === 0)
    return (
      <p ref={none} tabIndex={-1} className={styles.empty}>
        {INBOX_TEXTS.noRequests}
      </p>
    );
  return (
    <>
      <ul className={styles.list} aria-label="Requests" ref={attachList} onBlur={onBlur}>
        {requests.map((request) => (
          <RequestCard
            key={request.id}
            request={request}
            viewer={viewer}
            onHeld={() => {
              focused.current = request.id;
            }}
          />
        ))}
      </ul>
      <LoadMore list={list} className={styles.more} />
    </>
  );
}
