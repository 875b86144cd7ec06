"use client";

import { CoupleBadge } from "@/components/profile/CoupleBadge";
import Link from "next/link";
import { useEffect, useEffectEvent, useLayoutEffect, useRef, useState } from "react";
import { Alert } from "@/components/ui/Alert";
import { ArrivalsStatus } from "@/components/ui/ArrivalsStatus";
import { ApiError } from "@/lib/transport/client";
import { liveState, push, useLive } from "@/lib/live/client/use-live";
import { SAFETY_PAGE } from "@/lib/safety/rules";
import { fetchConversation, fetchMessages, markRead, setMuted, threadKey } from "@/lib/messages/client/api";
import { MESSAGE_TEXTS, THREAD_PAGE_DEFAULT } from "@/lib/messages/rules";
import {
  heardAsMessage,
  readUpTo,
  THREAD_POLL_MS,
  threadItems,
  withMessage,
  withNewestPage,
  withOlderPage,
  type Message,
  type ThreadValue,
} from "@/lib/messages/display";
import { ConversationPlans, PlanMeetupButton } from "@/components/plans/ConversationPlans";
import type { PlanView } from "@/lib/plans/view";
import { Composer } from "./Composer";
import { TypingLine } from "./TypingLine";
import { CoupleFace } from "./CoupleFace";
import { MessageItem } from "./MessageItem";
import styles from "./Thread.module.css";

/** Closer than this to an edge counts as at it (px): the newest stay in view, older load before the top is hit. */
const EDGE_PX = 120;

/**
 * The conversation and its newest page, added to every message loaded before when the two meet,
 * else in their place (withNewestPage: never a gap between them); the newest copy wins, as it
 * carries deletions. Older pages are pushed in as they load.
 */
async function loadLatest(key: string, conversationId: string, signal: AbortSignal): Promise<ThreadValue> {
  const [conversation, page] = await Promise.all([
    fetchConversation(conversationId, signal),
    fetchMessages(conversationId, { limit: THREAD_PAGE_DEFAULT }, signal),
  ]);
  const shown = liveState<ThreadValue>(key);
  return withNewestPage(shown?.status === "ready" ? shown.value : null, conversation, {
    data: page.data,
    hasMore: page.pagination.hasMore,
  });
}

/**
 * One conversation, newest at the bottom, first painted as the server read it and at its newest
 * message before any script runs (the log starts at its bottom: Thread.module.css): the newest page
 * stays current through the live hook;
 * scrolling up (or 'Load older messages') loads older pages above, keeping the reader's place.
 * What is shown is marked read for this person (never for anyone else); 'Seen by' follows the
 * others' read positions.
 */
export function Thread({
  conversationId,
  viewerId,
  initial,
  initialPlans,
}: {
  conversationId: string;
  viewerId: string;
  initial: ThreadValue;
  initialPlans: PlanView[];
}) {
  const key = threadKey(conversationId);
  const state = useLive(key, (signal) => loadLatest(key, conversationId, signal), { pollMs: THREAD_POLL_MS, initial });
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<string | null>(null);
  const [muteError, setMuteError] = useState<string | null>(null);
  /** The message chosen with 'Reply', by id: the composer shows it as it is now. */
  const [replyToId, setReplyToId] = useState<string | null>(null);
  const composerFieldId = `composer-${conversationId}`;
  const log = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  /** atBottom as state, for what follows the reader reaching the newest message (marking it read). */
  const [seesNewest, setSeesNewest] = useState(true);
  const marked = useRef<string | null>(null);

  const latest = state.status === "ready" ? state.value : null;
  const messages = latest?.messages ?? [];
  const hasOlder = latest?.hasMore ?? false;
  const lastId = messages.at(-1)?.id ?? null;
  const oldestId = messages[0]?.id ?? null;
  // Edited, it is quoted as it reads now; erased (by its author or a moderator), there is nothing
  // left to answer, so the reply is dropped rather than refused by the server.
  const replyTo = messages.find((message) => message.id === replyToId && !message.deleted) ?? null;

  async function loadOlder() {
    if (!oldestId || loadingOlder || !hasOlder) return;
    setLoadingOlder(true);
    setOlderError(null);
    try {
      const before = oldestId;
      const page = await fetchMessages(conversationId, { before, limit: THREAD_PAGE_DEFAULT });
      push<ThreadValue>(key, (current) => withOlderPage(current, before, { data: page.data, hasMore: page.pagination.hasMore }));
    } catch (failure) {
      setOlderError(failure instanceof Error ? failure.message : "Could not load older messages");
    } finally {
      setLoadingOlder(false);
    }
  }

  // The log's scroll position counts from its bottom (0 there, negative above: Thread.module.css), so
  // the browser keeps it as older messages go in above, as photos load and as the view shrinks (a
  // phone's keyboard), and keeps the reader's place when one arrives below (scroll anchoring). A new
  // message near the bottom, or one's own sent: the newest in view.
  useLayoutEffect(() => {
    if (atBottom.current && log.current) log.current.scrollTop = 0;
  }, [lastId]);

  // Read up to the others' newest message once it is on screen: the page shown and the reader at
  // the bottom (readUpTo; a read position never moves back, and never onto one's own message). Looked
  // at again as messages arrive, as the tab is shown and as the reader scrolls back down (what
  // arrived while they were further up is read then); an ended conversation's positions stay where they were.
  const readPosition = latest?.conversation.readPositions.find((position) => position.userId === viewerId)?.lastReadMessageId ?? null;
  const ended = latest?.conversation.ended ?? false;
  const markShown = useEffectEvent(() => {
    if (ended) return;
    const upTo = readUpTo(messages, viewerId, readPosition, {
      visible: document.visibilityState === "visible",
      atBottom: atBottom.current,
    });
    if (!upTo || marked.current === upTo) return;
    marked.current = upTo;
    markRead(conversationId, upTo).catch(() => {
      // Still unread: tried again with the next message, when the tab is shown or the reader scrolls
      // down again (and, refused by the server's limit, once its wait is over: markRead).
      if (marked.current === upTo) marked.current = null;
    });
  });
  useEffect(() => {
    markShown();
    const onVisibility = () => markShown();
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
  }, [lastId, readPosition, ended, seesNewest]);

  if (state.status === "loading") return <p className={styles.status}>Loading the conversation...</p>;
  if (state.status === "error") {
    const missing = state.error instanceof ApiError && state.error.status === 404;
    return (
      <div className={styles.status}>
        <h1 className={styles.missingTitle}>{missing ? "Conversation not found" : "Could not load this conversation"}</h1>
        <p>
          {/* Not prefetched: the inbox is rendered per request, as the header's links (CoupleCard's rule). */}
          <Link href="/messages" className={styles.back} prefetch={false}>
            Back to messages
          </Link>
        </p>
      </div>
    );
  }
  const { conversation } = state.value;
  const other = conversation.couples.find((couple) => !couple.partners.some((partner) => partner.userId === viewerId));
  const own = conversation.couples.find((couple) => couple !== other);
  const avatars = new Map(conversation.couples.flatMap((couple) => couple.partners.map((p) => [p.userId, p.avatarUrl] as const)));
  const items = threadItems(messages, conversation.readPositions, viewerId, new Date());

  const onScroll = () => {
    const element = log.current;
    if (!element) return;
    const fromBottom = -element.scrollTop;
    atBottom.current = fromBottom < EDGE_PX;
    setSeesNewest(atBottom.current);
    if (element.scrollHeight - element.clientHeight - fromBottom < EDGE_PX) void loadOlder();
  };

  const markEnded = () => push<ThreadValue>(key, (current) => ({ ...current, conversation: { ...current.conversation, ended: true } }));

  const changeMessage = (changed: Message) => {
    push<ThreadValue>(key, (current) => withMessage(current, changed));
  };

  return (
    <section className={styles.thread} aria-labelledby="thread-title">
      <header className={styles.header}>
        {/* None of its links is prefetched: the inbox and the profile are rendered per request (CoupleCard's rule), and
            the safety page's appeal form would bring react-hook-form while the conversation itself is loading. */}
        <Link href="/messages" className={styles.back} aria-label="Back to messages" prefetch={false}>
          <span aria-hidden="true">←</span>
        </Link>
        {other && <CoupleFace url={other.profileImageUrl} size={40} />}
        <h1 id="thread-title" className={styles.title}>
          {other ? (
            <Link href={`/profile/${encodeURIComponent(other.id)}`} prefetch={false}>
              {other.coupleName}
            </Link>
          ) : (
            "Conversation"
          )}
        </h1>
        {/* On a phone these go to the row under the name, so the name keeps the first row's width. */}
        <div className={styles.actions}>
          {!conversation.ended && <PlanMeetupButton conversationId={conversationId} onEnded={markEnded} />}
          {!conversation.ended && (
            <MuteButton conversationId={conversationId} muted={conversation.muted ?? false} onFailed={setMuteError} />
          )}
          <Link href={SAFETY_PAGE} className="button-link" prefetch={false}>
            Safety
          </Link>
        </div>
        {/* Under the name: on a phone beside the actions, wide on a row of its own. */}
        {other?.photoBadge && (
          <div className={styles.badgeRow}>
            <CoupleBadge badge={other.photoBadge} />
          </div>
        )}
        {muteError && !conversation.ended && (
          <p className={`field-error ${styles.headerError}`} role="alert">
            {muteError}
          </p>
        )}
      </header>
      <ConversationPlans
        conversationId={conversationId}
        viewer={{ userId: viewerId, coupleId: own?.id ?? "" }}
        initial={initialPlans}
        onEnded={markEnded}
      />
      {/* Silent itself: older pages load into it, reactions and 'Seen by' change in it; the status below reads out arrivals. */}
      <div ref={log} className={styles.log} role="log" aria-live="off" aria-label="Messages" tabIndex={0} onScroll={onScroll}>
        <div>
          {hasOlder && (
            <p className={styles.older}>
              <button type="button" className="button-link" onClick={() => void loadOlder()} disabled={loadingOlder}>
                {loadingOlder ? "Loading..." : "Load older messages"}
              </button>
            </p>
          )}
          {olderError && <Alert tone="error">{olderError}</Alert>}
          {items.length === 0 && <p className={styles.status}>No messages yet. Say hello!</p>}
          <ol className={styles.list}>
            {items.map((item) =>
              item.kind === "day" ? (
                <li key={item.key} className={styles.day}>
                  <span>{item.label}</span>
                </li>
              ) : (
                <MessageItem
                  key={item.message.id}
                  message={item.message}
                  seenBy={item.seenBy}
                  avatarUrl={item.message.author.userId ? (avatars.get(item.message.author.userId) ?? null) : null}
                  viewer={{ userId: viewerId, coupleId: own?.id ?? "" }}
                  ended={conversation.ended}
                  onChanged={changeMessage}
                  onReply={(message) => {
                    setReplyToId(message.id);
                    document.getElementById(composerFieldId)?.focus();
                  }}
                  onBlocked={markEnded}
                />
              ),
            )}
          </ol>
        </div>
      </div>
      {!conversation.ended && <TypingLine conversationId={conversationId} />}
      {conversation.ended ? (
        <p className={styles.ended} role="status">
          {MESSAGE_TEXTS.ended}
        </p>
      ) : (
        <Composer
          conversationId={conversationId}
          viewerId={viewerId}
          fieldId={composerFieldId}
          replyTo={replyTo}
          onReplyTo={(message) => setReplyToId(message?.id ?? null)}
          onSent={(sent) => {
            atBottom.current = true;
            push<ThreadValue>(key, (current) => withMessage(current, sent));
          }}
          onEnded={markEnded}
        />
      )}
      {/* Last: the thread's end, by which its CSS knows the whole thread is in the page (Thread.module.css). */}
      <ArrivalsStatus items={latest ? messages : null} heardAs={heardAsMessage(viewerId)} className={styles.end} />
    </section>
  );
}

/**
 * 'Mute' (no notifications from this conversation, unread counts kept) and back. A refusal (the
 * server's limit among them) is told through `onFailed`; the button follows the thread as loaded
 * again (setMuted), so it says what the server holds.
 */
function MuteButton({ conversationId, muted, onFailed }: { conversationId: string; muted: boolean; onFailed(text: string | null): void }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="button button-secondary"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        onFailed(null);
        setMuted(conversationId, !muted)
          .catch((failure: unknown) =>
            onFailed(failure instanceof Error ? failure.message : `Could not ${muted ? "unmute" : "mute"} this conversation`),
          )
          .finally(() => setBusy(false));
      }}
    >
      {muted ? "Unmute" : "Mute"}
    </button>
  );
}
