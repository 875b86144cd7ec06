"use client";

import type { FormEventHandler, Ref, TextareaHTMLAttributes } from "react";
import { Alert } from "@/components/ui/Alert";
import { BODY_MAX } from "@/lib/messages/rules";
import type { Message } from "@/lib/messages/display";
import styles from "./Composer.module.css";

/** The counter shows once a message nears its limit. */
const COUNT_FROM = BODY_MAX - 500;

/**
 * The message's one optional photo, uploaded first (Composer: kept across the light form's swap,
 * an upload under way included) and sent with the words.
 */
export type Attachment = {
  photo: { url: string } | null;
  /** The upload's progress (0-1) while one is on its way. */
  uploading: number | null;
  /** Why the chosen file was refused or its upload failed. */
  failure: string | null;
  attach(file: File | undefined): void;
  remove(): void;
  /** A message that failed takes its photo back, unless another was chosen meanwhile. */
  restore(photo: { url: string } | null): void;
  clearFailure(): void;
};

type Props = {
  formRef?: Ref<HTMLFormElement>;
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The field's id, for 'Reply' to put focus on it. */
  fieldId: string;
  /** Said above the field: the words' problem, a photo's or the call's failure. */
  error: string | null;
  /** The words were refused by the form's checks. */
  invalid?: boolean;
  /** How many characters are written (the counter, and 'Send' waits past BODY_MAX). */
  length: number;
  replyTo: Message | null;
  onCancelReply(): void;
  attachment: Attachment;
  busy?: boolean;
  /** A pointer over the form or on it, or focus in it: the person is about to write. */
  onReach?(): void;
  /** The 'Message' field's value and handlers (the light form's state, or the full form's registration). */
  field: TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> };
};

/**
 * The composer's frame: the failure, the message answered, the photo, 'Add a photo', the field,
 * 'Send' ('Sending...') and the counter. One frame for the light form painted with the
 * conversation and the full one loaded for it (Composer), so the swap moves nothing.
 */
export function MessageForm({
  formRef,
  onSubmit,
  fieldId: id,
  error,
  invalid = false,
  length,
  replyTo,
  onCancelReply,
  attachment,
  busy = false,
  onReach,
  field,
}: Props) {
  const { photo, uploading } = attachment;
  const over = length > BODY_MAX;
  return (
    <form
      ref={formRef}
      className={styles.composer}
      onSubmit={onSubmit}
      onFocus={onReach}
      onPointerEnter={onReach}
      onPointerDown={onReach}
      noValidate
    >
      {error && (
        <Alert tone="error" id={`${id}-error`}>
          {error}
        </Alert>
      )}
      {replyTo && (
        <div className={styles.replying}>
          <span className={styles.replyingText}>
            Replying to <strong>{replyTo.author.firstName}</strong>: {replyTo.body ?? (replyTo.photoUrl ? "Photo" : "")}
          </span>
          <button
            type="button"
            className="button-link"
            onClick={() => {
              onCancelReply();
              document.getElementById(id)?.focus();
            }}
          >
            Cancel reply
          </button>
        </div>
      )}
      {photo && (
        <div className={styles.preview}>
          {/* eslint-disable-next-line @next/next/no-img-element -- an upload already resized by the server */}
          <img src={photo.url} alt="Photo to send" width={72} height={72} />
          {/* The button goes with the photo: the keyboard lands in the message it was part of. */}
          <button
            type="button"
            className="button-link"
            onClick={() => {
              attachment.remove();
              document.getElementById(id)?.focus();
            }}
          >
            Remove photo
          </button>
        </div>
      )}
      <div className={styles.row}>
        <label className={`icon-button ${styles.attach}`} data-disabled={uploading !== null || photo !== null || undefined}>
          <span aria-hidden="true">+</span>
          <span className="visually-hidden">{uploading !== null ? `Uploading photo, ${Math.round(uploading * 100)}%` : "Add a photo"}</span>
          <input
            type="file"
            accept="image/jpeg,image/png,image/webp"
            className="visually-hidden"
            disabled={uploading !== null || photo !== null}
            onChange={(event) => {
              attachment.attach(event.target.files?.[0]);
              event.target.value = "";
            }}
          />
        </label>
        <label htmlFor={id} className="visually-hidden">
          Message
        </label>
        <textarea
          id={id}
          className={styles.input}
          rows={2}
          placeholder="Write a message"
          aria-invalid={over || invalid || undefined}
          aria-describedby={[error && `${id}-error`, length >= COUNT_FROM && `${id}-count`].filter(Boolean).join(" ") || undefined}
          {...field}
        />
        <button type="submit" className="button button-primary" disabled={busy || uploading !== null}>
          {busy ? "Sending..." : "Send"}
        </button>
      </div>
      {length >= COUNT_FROM && (
        <span id={`${id}-count`} className={over ? "field-hint field-count-over" : "field-hint"}>
          {length.toLocaleString("en-US")} / {BODY_MAX.toLocaleString("en-US")} characters
        </span>
      )}
    </form>
  );
}
