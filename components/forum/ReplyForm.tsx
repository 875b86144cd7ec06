"use client";

import type { FormEventHandler, ReactNode, Ref } from "react";
import { Alert } from "@/components/ui/Alert";
import type { ForumReply } from "@/lib/forum/client/api";
import { REPLY_BODY_MAX } from "@/lib/forum/rules";
import styles from "./ReplyForm.module.css";

type Props = {
  formRef?: Ref<HTMLFormElement>;
  onSubmit: FormEventHandler<HTMLFormElement>;
  failure?: string | null;
  quoting: ForumReply | null;
  onCancelQuote(): void;
  busy?: boolean;
  /** A pointer over the form or on it, or focus in it: the reader is about to write. */
  onReach?(): void;
  /** The 'Write a reply' field. */
  children: ReactNode;
};

/** The reply field as the light form and the full one both paint it (the swap moves nothing). */
export const REPLY_FIELD = { label: "Write a reply", name: "reply", max: REPLY_BODY_MAX, rows: 4 } as const;

/**
 * The reply form's frame: its failure, the reply it quotes, the field and 'Reply' ('Replying...').
 * One frame for the light form painted with the thread and the full one loaded for it
 * (ReplyComposer), so the swap moves nothing on the page.
 */
export function ReplyForm({ formRef, onSubmit, failure, quoting, onCancelQuote, busy = false, onReach, children }: Props) {
  return (
    <form
      ref={formRef}
      className={`card ${styles.form}`}
      onSubmit={onSubmit}
      onFocus={onReach}
      onPointerEnter={onReach}
      onPointerDown={onReach}
      noValidate
      aria-label="Reply to this post"
    >
      {failure && <Alert tone="error">{failure}</Alert>}
      {quoting && (
        <p className={styles.quoting}>
          Quoting {quoting.author.signature}{" "}
          <button type="button" className="button-link" onClick={onCancelQuote}>
            Remove quote
          </button>
        </p>
      )}
      {children}
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? "Replying..." : "Reply"}
      </button>
    </form>
  );
}
