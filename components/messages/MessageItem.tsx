"use client";

import dynamic from "next/dynamic";
import { useEffect, useRef, useState } from "react";
import { useRestriction } from "@/components/moderation/RestrictionContext";
import { ItemMenu } from "@/components/safety/ItemMenu";
import { Alert } from "@/components/ui/Alert";
import { FormActions } from "@/components/ui/FormActions";
import { Dialog } from "@/components/ui/Dialog";
import { linkLabel, renderBody } from "@/lib/plain-text";
import { IMAGE_SIZES } from "@/lib/images/rules";
import { deleteMessage, reactToMessage } from "@/lib/messages/client/api";
import { editable, MESSAGE_TEXTS } from "@/lib/messages/rules";
import { authorLine, MESSAGE_LINK_REL, messageTime, reactionsValue, seenByText, type Message } from "@/lib/messages/display";
import { Lightbox } from "@/components/photos/Lightbox";
import { Reactions } from "@/components/reactions/Reactions";
import { messageElementId, MessageQuote } from "./MessageQuote";
import { CoupleFace } from "./CoupleFace";
import { Opening } from "@/components/ui/Opening";
import styles from "./MessageItem.module.css";

/** The editor (react-hook-form, the checks) loads on 'Edit', not with the conversation. */
const MessageEditor = dynamic(() => import("./MessageEditor").then((m) => m.MessageEditor), { ssr: false, loading: () => <Opening /> });

/**
 * A message's plain text: line breaks kept, http(s) links clickable, never HTML or markdown.
 * `plainLinks`: a low-trust couple's early message, its links shown as text (lib/safety/spam-rules.ts).
 */
function MessageBody({ text, plainLinks }: { text: string; plainLinks: boolean }) {
  return (
    <div className={styles.body}>
      {renderBody(text).map((paragraph, p) => (
        <p key={p}>
          {paragraph.map((line, l) => (
            <span key={l}>
              {l > 0 && <br />}
              {line.map((segment, s) =>
                segment.kind === "link" && !plainLinks ? (
                  <a key={s} href={segment.href} rel={MESSAGE_LINK_REL} target="_blank">
                    {linkLabel(segment.text)}
                  </a>
                ) : (
                  <span key={s} data-plain-link={segment.kind === "link" ? "" : undefined}>
                    {segment.kind === "mention" ? segment.label : segment.text}
                  </span>
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
  /** The conversation ended: it is read as it was, nothing more is done in it. */
  ended: boolean;
  onChanged(message: Message): void;
  onReply(message: Message): void;
  onBlocked(): void;
};

/**
 * One message: the author as 'Marisol of Marisol & Thaddeus' (with their face), the time ('edited' once
 * changed), the message it answers, the text and photo (full size on a tap), its reactions,
 * 'Seen by' when it is someone's latest read. Its menu replies and reacts; its author edits it
 * within 15 minutes or deletes it; the other couple's is reported.
 */
export function MessageItem({ message, seenBy, avatarUrl, viewer, ended, onChanged, onReply, onBlocked }: Props) {
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  const [reacting, setReacting] = useState(false);
  const [photoOpen, setPhotoOpen] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const restriction = useRestriction();
  const mine = message.author.userId === viewer.userId;
  const partners = message.author.coupleId === viewer.coupleId;
  const open = !message.deleted && !ended;
  // A partner's message offers replying and reacting; one's own also editing and deleting, the other couple's reporting.
  const menu = !message.deleted && message.author.coupleId !== null && (open || mine || !partners);
  const reactions = reactionsValue(message.reactions);
  const photoAlt = `Photo from ${message.author.firstName}`;

  // A closed editor or confirmation gives focus back to the message's menu button, where it was
  // opened (the menu's own buttons are gone by then); to the message itself once it is deleted.
  const item = useRef<HTMLLIElement>(null);
  const returnFocus = useRef(false);
  const closeThen = (close: () => void) => {
    returnFocus.current = true;
    close();
  };
  useEffect(() => {
    if (confirming || editing || !returnFocus.current) return;
    returnFocus.current = false;
    (item.current?.querySelector<HTMLElement>("summary") ?? item.current)?.focus();
  }, [confirming, editing]);

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await deleteMessage(message.id);
      closeThen(() => setConfirming(false));
      onChanged({ ...message, body: null, photoUrl: null, deleted: true, replyTo: null, reactions: [] });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Could not delete this message");
    } finally {
      setBusy(false);
    }
  }

  return (
    <li
      ref={item}
      id={messageElementId(message.id)}
      tabIndex={-1}
      className={mine ? `${styles.item} ${styles.mine}` : styles.item}
      data-testid="message"
    >
      {!mine && <CoupleFace url={avatarUrl} size={40} kind="person" />}
      <div className={styles.bubbleColumn}>
        <p className={styles.meta}>
          <span className={styles.author}>{authorLine(message.author)}</span>{" "}
          <time dateTime={message.createdAt} suppressHydrationWarning>
            {messageTime(message.createdAt)}
          </time>
          {message.editedAt && <span> · edited</span>}
        </p>
        {message.replyTo && <MessageQuote quote={message.replyTo} />}
        <div className={styles.row}>
          {editing ? (
            <MessageEditor
              message={message}
              onCancel={() => closeThen(() => setEditing(false))}
              onSaved={(saved) => {
                closeThen(() => setEditing(false));
                onChanged(saved);
              }}
            />
          ) : (
            <div className={message.deleted ? `${styles.bubble} ${styles.deleted}` : styles.bubble}>
              {message.deleted ? (
                <p>{MESSAGE_TEXTS.deleted}</p>
              ) : (
                <>
                  {message.photoUrl && (
                    <button type="button" className={styles.photoButton} onClick={() => setPhotoOpen(0)} aria-haspopup="dialog">
                      {/* eslint-disable-next-line @next/next/no-img-element -- already resized by the server's image pipeline */}
                      <img
                        className={styles.photo}
                        src={message.photoUrl}
                        alt={photoAlt}
                        // Every message photo is cut to this size: the thread keeps its room before it loads.
                        width={IMAGE_SIZES["message-photo"].width}
                        height={IMAGE_SIZES["message-photo"].height}
                        loading="lazy"
                      />
                    </button>
                  )}
                  {message.body && <MessageBody text={message.body} plainLinks={message.plainLinks === true} />}
                </>
              )}
            </div>
          )}
          {menu && !editing && (
            <ItemMenu
              label={`More actions for ${message.author.firstName}'s message`}
              targetType="message"
              targetId={message.id}
              author={{ userId: message.author.userId, coupleId: message.author.coupleId, coupleName: message.author.coupleName }}
              viewer={viewer}
              actions={
                open
                  ? [
                      { label: "Reply", onSelect: () => onReply(message) },
                      { label: "React", onSelect: () => setReacting(true) },
                    ]
                  : []
              }
              onEdit={mine && open && !restriction && editable(message.createdAt) ? () => setEditing(true) : undefined}
              onDelete={mine ? () => setConfirming(true) : undefined}
              onBlocked={onBlocked}
            />
          )}
        </div>
        {!message.deleted && (message.reactions.length > 0 || reacting) && (
          <Reactions
            key={`${message.id}:${JSON.stringify(message.reactions)}:${reacting}`}
            value={reactions}
            compact
            disabled={ended}
            startOpen={reacting}
            onToggle={async (kind, on) => {
              onChanged(await reactToMessage(message.id, kind, on));
              setReacting(false);
            }}
          />
        )}
        {seenBy.length > 0 && <p className={styles.seen}>{seenByText(seenBy)}</p>}
      </div>
      {message.photoUrl && <Lightbox photos={[{ url: message.photoUrl, alt: photoAlt }]} index={photoOpen} onIndex={setPhotoOpen} />}
      {confirming && (
        <Dialog open onClose={() => closeThen(() => setConfirming(false))} title="Delete this message?">
          <p>It is erased for good; everyone in this conversation sees &lsquo;{MESSAGE_TEXTS.deleted}&rsquo; instead.</p>
          {error && <Alert tone="error">{error}</Alert>}
          <FormActions
            label="Delete"
            busyLabel="Deleting..."
            busy={busy}
            onAction={remove}
            onCancel={() => closeThen(() => setConfirming(false))}
            focusCancel
          />
        </Dialog>
      )}
    </li>
  );
}
