"use client";

import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import {
  FORUM_TEXTS,
  heardAsReply,
  REPLY_POLL_MS,
  showsEdited,
  THREAD_REPLIES_SHOWN,
  signature,
  type ReactionTarget,
} from "@/lib/forum/rules";
import { deleteTarget, fetchThread, setReaction, type ForumReply, type Thread } from "@/lib/forum/client/api";
import { push, useLive } from "@/lib/live/client/use-live";
import { Body } from "./Body";
import { ItemMenu } from "@/components/safety/ItemMenu";
import { Alert } from "@/components/ui/Alert";
import { ArrivalsStatus } from "@/components/ui/ArrivalsStatus";
import { useRestriction } from "@/components/moderation/RestrictionContext";
import { Reactions } from "@/components/reactions/Reactions";
import { ReplyComposer } from "./ReplyComposer";
import styles from "./PostThread.module.css";
import { Signature } from "./Signature";
import { Topline } from "./Topline";

export type Viewer = { userId: string; coupleId: string };

const replyAnchor = (id: string) => `reply-${id}`;
/** Reaction buttons keep their own state: a poll with other counts starts them afresh. */
const reactionsKey = (item: Pick<ForumReply, "id" | "reactions" | "myReactions">) =>
  `${item.id}:${Object.values(item.reactions).join()}:${item.myReactions.join()}`;
/** A post's or reply's reactions, saved through the forum's API. */
function ItemReactions({
  target,
  item,
}: {
  target: ReactionTarget;
  item: Pick<ForumReply, "id" | "reactions" | "myReactions" | "reactedBy">;
}) {
  return (
    <Reactions
      value={{ counts: item.reactions, mine: item.myReactions, reactedBy: item.reactedBy }}
      onToggle={(kind, on) => setReaction(target, item.id, kind, on).then(() => undefined)}
    />
  );
}

const edited = (item: { createdAt: string; editedAt: string | null }) =>
  showsEdited(new Date(item.createdAt), item.editedAt === null ? null : new Date(item.editedAt));

/** The reply the address points at (`#reply-{id}`), as the notification links do. */
function hashTarget(): string | null {
  const hash = decodeURIComponent(window.location.hash.slice(1));
  return hash.startsWith("reply-") ? hash : null;
}

const threadKey = (postId: string) => `forum:thread:${postId}`;

/** Editing in place is for the author, after a click on 'Edit': its code loads then. */
const PostEditor = dynamic(() => import("./Editors").then((m) => m.PostEditor), { ssr: false });
const ReplyEditor = dynamic(() => import("./Editors").then((m) => m.ReplyEditor), { ssr: false });

function Placeholder({ item, noun }: { item: { deleted: boolean; removed?: boolean }; noun: "post" | "reply" }) {
  if (item.removed) return <p className={styles.gone}>{FORUM_TEXTS.removedByModerator}</p>;
  return <p className={styles.gone}>{noun === "post" ? FORUM_TEXTS.deletedPost : "This reply was deleted"}</p>;
}

/** A quoted reply, one level deep: who wrote it and its start, linking to it. */
function Quote({ quote }: { quote: NonNullable<ForumReply["quote"]> }) {
  const who = quote.author ? `${signature(quote.author.firstName, quote.author.coupleName)} wrote:` : "A reply:";
  return (
    <blockquote className={styles.quote}>
      <a href={`#${replyAnchor(quote.id)}`} className="inline-target">
        {who}
      </a>
      <p>{quote.deleted ? "This reply was deleted" : quote.excerpt}</p>
    </blockquote>
  );
}

/**
 * A post and its replies, oldest first. Each reply is `id="reply-{id}"`: the address's reply is
 * scrolled to, highlighted and focused. Replies from others arrive live: the thread is loaded
 * again every 10 s while the tab is visible (the spec's cadence), at once when it is shown again,
 * never while hidden; this page's own changes are pushed to the same live value.
 */
export function PostThread({ initial, viewer }: { initial: Thread; viewer: Viewer }) {
  const router = useRouter();
  const key = threadKey(initial.post.id);
  const live = useLive(key, (signal) => fetchThread(initial.post.id, signal), { pollMs: REPLY_POLL_MS, initial });
  const { post, replies, pagination } = live.status === "ready" ? live.value : initial;
  const setPost = (next: Thread["post"]) => push<Thread>(key, (thread) => ({ ...thread, post: next }));
  const setReplies = (change: (all: ForumReply[]) => ForumReply[]) =>
    push<Thread>(key, (thread) => ({ ...thread, replies: change(thread.replies) }));
  const [target, setTarget] = useState<string | null>(null);
  const [quoting, setQuoting] = useState<ForumReply | null>(null);
  /** What the author is editing in place: the post, or one of their replies (by id). */
  const [editing, setEditing] = useState<string | null>(null);
  /** A delete the server refused or the network lost, said on the item itself. */
  const [deleteFailure, setDeleteFailure] = useState<{ id: string; message: string } | null>(null);
  // A restricted couple reads, but edits and quotes nothing (the reply form says why and until when).
  const restriction = useRestriction();

  useEffect(() => {
    const follow = () => setTarget(hashTarget());
    follow();
    // A client-side navigation (the bell's link) may commit the new address just after this page mounts.
    const frame = requestAnimationFrame(follow);
    window.addEventListener("hashchange", follow);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("hashchange", follow);
    };
  }, []);
  // Once per address: the thread reloads every 10 s, and a reply followed again then would take
  // the scroll and the focus from whoever reads on or writes a reply. Replies still loading are waited for.
  const followed = useRef<string | null>(null);
  useEffect(() => {
    if (!target || followed.current === target) return;
    const element = document.getElementById(target);
    if (!element) return;
    followed.current = target;
    element.scrollIntoView({ block: "center" });
    element.focus({ preventScroll: true });
  }, [target, replies]);

  const onBlocked = (coupleId: string) => {
    if (coupleId === post.author.coupleId) {
      router.push("/forum");
      return;
    }
    setReplies((all) => all.filter((reply) => reply.author.coupleId !== coupleId));
    router.refresh();
  };

  const remove = async (kind: "post" | "reply", id: string) => {
    if (!window.confirm(`Delete this ${kind}? This cannot be undone.`)) return;
    setDeleteFailure(null);
    try {
      await deleteTarget(kind, id);
    } catch (failure) {
      setDeleteFailure({ id, message: failure instanceof Error ? failure.message : `Could not delete this ${kind}` });
      return;
    }
    if (kind === "post") router.push("/forum");
    else setReplies((all) => all.map((reply) => (reply.id === id ? { ...reply, deleted: true } : reply)));
  };

  const postGone = post.deleted || post.removed;

  /** After an edit closes, focus goes back to the item's menu button, where it was opened (once it is rendered again). */
  const returnFocus = useRef<string | null>(null);
  const closeEditor = (anchor: string) => {
    returnFocus.current = anchor;
    setEditing(null);
  };
  useEffect(() => {
    if (editing !== null || !returnFocus.current) return;
    document.getElementById(returnFocus.current)?.querySelector<HTMLElement>("summary")?.focus();
    returnFocus.current = null;
  }, [editing]);

  /** The post's or a reply's menu: edit (not while restricted), delete, report, block. */
  const actionsMenu = (targetType: "post" | "reply", item: Pick<ForumReply, "id" | "author">) => (
    <ItemMenu
      label={targetType === "post" ? "Post actions" : "Reply actions"}
      targetType={targetType}
      targetId={item.id}
      author={item.author}
      viewer={viewer}
      onEdit={restriction ? undefined : () => setEditing(item.id)}
      onDelete={() => remove(targetType, item.id)}
      onBlocked={onBlocked}
    />
  );

  return (
    <>
      <article className={`card ${styles.post}`} aria-labelledby="post-title">
        <Topline topic={post.topic} place={post.scope === "local" ? post.place : null} distanceBand={post.distanceBand} />
        <div className={styles.head} id="post-head">
          <h1 id="post-title">{post.title}</h1>
          {!postGone && editing !== post.id && actionsMenu("post", post)}
        </div>
        <Signature author={post.author} at={post.createdAt} edited={edited(post)} />
        {deleteFailure?.id === post.id && <Alert tone="error">{deleteFailure.message}</Alert>}
        {post.hidden && (
          <p className="alert alert-info">Only your couple sees this post until our team has reviewed the reports about it.</p>
        )}
        {postGone ? (
          <Placeholder item={post} noun="post" />
        ) : (
          <>
            {editing === post.id ? (
              <PostEditor
                post={post}
                onCancel={() => closeEditor("post-head")}
                onSaved={(saved) => {
                  setPost(saved);
                  closeEditor("post-head");
                }}
              />
            ) : (
              <Body text={post.body} mentions={post.mentions} />
            )}
            {post.photos.length > 0 && (
              <ul className={styles.photos}>
                {post.photos.map((url, index) => (
                  <li key={url}>
                    <a href={url} target="_blank" rel="noopener">
                      {/* eslint-disable-next-line @next/next/no-img-element -- an upload already resized by the server */}
                      <img src={url} alt={`Photo ${index + 1} of ${post.photos.length}: ${post.title}`} loading="lazy" />
                    </a>
                  </li>
                ))}
              </ul>
            )}
            <ItemReactions key={reactionsKey(post)} target="post" item={post} />
          </>
        )}
      </article>

      <section className={styles.replies} aria-labelledby="replies-title">
        <h2 id="replies-title">
          {replies.length} {replies.length === 1 ? "reply" : "replies"}
        </h2>
        <ol className="stack">
          {replies.map((reply) => {
            const gone = reply.deleted || reply.removed;
            const anchor = replyAnchor(reply.id);
            return (
              <li
                key={reply.id}
                id={anchor}
                tabIndex={-1}
                className={`card ${styles.reply}`}
                // The reply the address points at, highlighted (after a client-side navigation :target does not apply).
                aria-current={target === anchor ? "true" : undefined}
                aria-label={`Reply by ${reply.author.signature}`}
              >
                <div className={styles.head}>
                  <Signature author={reply.author} at={reply.createdAt} edited={edited(reply)} />
                  {!gone && editing !== reply.id && actionsMenu("reply", reply)}
                </div>
                {deleteFailure?.id === reply.id && <Alert tone="error">{deleteFailure.message}</Alert>}
                {gone ? (
                  <Placeholder item={reply} noun="reply" />
                ) : editing === reply.id ? (
                  <ReplyEditor
                    reply={reply}
                    onCancel={() => closeEditor(anchor)}
                    onSaved={(saved) => {
                      setReplies((all) => all.map((r) => (r.id === saved.id ? saved : r)));
                      closeEditor(anchor);
                    }}
                  />
                ) : (
                  <>
                    {reply.quote && <Quote quote={reply.quote} />}
                    <Body text={reply.body} mentions={reply.mentions} />
                    <div className={styles.replyActions}>
                      <ItemReactions key={reactionsKey(reply)} target="reply" item={reply} />
                      {!restriction && (
                        <button type="button" className="button-link" onClick={() => setQuoting(reply)}>
                          Quote
                        </button>
                      )}
                    </div>
                  </>
                )}
              </li>
            );
          })}
        </ol>
        <ArrivalsStatus items={replies} heardAs={heardAsReply(viewer.userId)} />
        {pagination.hasMore && <p className="muted">This page shows the first {THREAD_REPLIES_SHOWN.toLocaleString("en")} replies.</p>}
      </section>

      {!postGone && (
        <ReplyComposer
          postId={post.id}
          userId={viewer.userId}
          quoting={quoting}
          onCancelQuote={() => setQuoting(null)}
          onReplied={(reply) => {
            setQuoting(null);
            setReplies((all) => (all.some((r) => r.id === reply.id) ? all : [...all, reply]));
          }}
        />
      )}
    </>
  );
}
