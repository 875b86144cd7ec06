"use client";

import { useState } from "react";
import { ItemMenu } from "@/components/safety/ItemMenu";
import { Alert } from "@/components/ui/Alert";
import { Dialog } from "@/components/ui/Dialog";
import { renderBody } from "@/lib/forum/text";
import { IMAGE_SIZES } from "@/lib/images/rules";
import { deleteMessage } from "@/lib/messages/client/api";
import { MESSAGE_TEXTS } from "@/lib/messages/rules";
import { authorLine, MESSAGE_LINK_REL, messageTime, seenByText, type Message } from "@/lib/messages/view";
import { CoupleFace } from "./CoupleFace";
import styles from "./MessageItem.module.css";

/** A message's plain text: line breaks kept, http(s) links clickable, never HTML or markdown. */
function MessageBody({ text }: { text: string }) {
  return (
    <div className={styles.body}>
      {renderBody(text).map((paragraph, p) => (
        <p key={p}>
          {paragraph.map((line, l) => (
            <span key={l}>
              {l > 0 && <br />}
              {line.map((segment, s) =>
                segment.kind === "link" ? (
                  <a key={s} href={segment.href} rel={MESSAGE_LINK_REL} target="_blank">
                    {segment.text}
                  </a>
                ) : (
                  <span key={s}>{segment.kind === "text" ? segment.text : segment.label}</span>
                ),
              )}
            </span>
          ))}
        </p>
      ))}
    </div>
  );
}

type Props = {
  message: Message;
  seenBy: string[];
  avatarUrl: string | null;
  viewer: { userId: string; coupleId: string };
  onChanged(message: Message): void;
  onBlocked(): void;
};

/**
 * One message: the author as 'Maya of Maya & Theo' (with their face), the time, the text and
 * photo, 'Seen by' when it is someone's latest read; its menu deletes one's own or reports another's.
 */
export function MessageItem({ message, seenBy, avatarUrl, viewer, onChanged, onBlocked }: Props) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const mine = message.author.userId === viewer.userId;
  const partners = message.author.coupleId === viewer.coupleId;
  // A partner's message offers nothing to do; one's own can be deleted, the other couple's reported.
  const menu = !message.deleted && message.author.coupleId !== null && (mine || !partners);

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await deleteMessage(message.id);
      setConfirming(false);
      onChanged({ ...message, body: null, photoUrl: null, deleted: true });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Could not delete this message");
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className={mine ? `${styles.item} ${styles.mine}` : styles.item} data-testid="message">
      {!mine && <CoupleFace url={avatarUrl} size={40} kind="person" />}
      <div className={styles.bubbleColumn}>
        <p className={styles.meta}>
          <span className={styles.author}>{authorLine(message.author)}</span>{" "}
          <time dateTime={message.createdAt} suppressHydrationWarning>
            {messageTime(message.createdAt)}
          </time>
        </p>
        <div className={styles.row}>
          <div className={message.deleted ? `${styles.bubble} ${styles.deleted}` : styles.bubble}>
            {message.deleted ? (
              <p>{MESSAGE_TEXTS.deleted}</p>
            ) : (
              <>
                {message.photoUrl && (
                  // eslint-disable-next-line @next/next/no-img-element -- already resized by the server's image pipeline
                  <img
                    className={styles.photo}
                    src={message.photoUrl}
                    alt={`Photo from ${message.author.firstName}`}
                    // Every message photo is cut to this size: the thread keeps its room before it loads.
                    width={IMAGE_SIZES["message-photo"].width}
                    height={IMAGE_SIZES["message-photo"].height}
                    loading="lazy"
                  />
                )}
                {message.body && <MessageBody text={message.body} />}
              </>
            )}
          </div>
          {menu && (
            <ItemMenu
              label={`More actions for ${message.author.firstName}'s message`}
              targetType="message"
              targetId={message.id}
              author={{ userId: message.author.userId, coupleId: message.author.coupleId, coupleName: message.author.coupleName }}
              viewer={viewer}
              onDelete={mine ? () => setConfirming(true) : undefined}
              onBlocked={onBlocked}
            />
          )}
        </div>
        {seenBy.length > 0 && <p className={styles.seen}>{seenByText(seenBy)}</p>}
      </div>
      {confirming && (
        <Dialog open onClose={() => setConfirming(false)} title="Delete this message?">
          <p>It is erased for good; everyone in this conversation sees &lsquo;{MESSAGE_TEXTS.deleted}&rsquo; instead.</p>
          {error && <Alert tone="error">{error}</Alert>}
          <div className="form-actions">
            <button type="button" className="button button-primary" disabled={busy} onClick={remove}>
              {busy ? "Deleting..." : "Delete"}
            </button>
            <button type="button" className="button button-secondary" onClick={() => setConfirming(false)} autoFocus>
              Cancel
            </button>
          </div>
        </Dialog>
      )}
    </li>
  );
}
