"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useId, useState } from "react";
import { useWatch } from "react-hook-form";
import { useZodForm } from "@/components/forms/useZodForm";
import { RestrictedInstead, useRestriction } from "@/components/moderation/RestrictionContext";
import { Alert } from "@/components/ui/Alert";
import { Dialog } from "@/components/ui/Dialog";
import { ApiError } from "@/lib/transport/client";
import { sendConnectionRequest } from "@/lib/messages/client/api";
import { NOTE_MAX, type ConnectionState } from "@/lib/connections/rules";
import { SAFETY_PAGE } from "@/lib/safety/rules";
import { INBOX_TEXTS } from "@/lib/messages/display";
import styles from "./SayHello.module.css";

type Props = { coupleId: string; coupleName: string; connection: ConnectionState; className?: string };

const loadSchema = () => import("@/lib/connections/schemas").then((schemas) => schemas.helloFormSchema);

/**
 * Consent first: 'Say hello' asks with a short note ('Send request'); afterwards 'Request sent',
 * and 'Message' (to the conversation) once the other couple has accepted; a couple who asked
 * first leads to the inbox's requests. The page is read again
 * after a request, so every card of the same couple on it says so too.
 */
export function SayHello({ coupleId, coupleName, connection, className }: Props) {
  const router = useRouter();
  const [sent, setSent] = useState(false);
  const [open, setOpen] = useState(false);
  // The dialog is rendered from its first opening on: a page of cards sends, paints and hydrates
  // none of them until one is used (it then stays, so closing is the browser's, focus back included).
  const [opened, setOpened] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const restriction = useRestriction();
  const {
    register,
    handleSubmit,
    setFocus,
    control,
    formState: { errors, isSubmitting: busy },
  } = useZodForm(loadSchema, { note: "" }, "on-submit");
  const note = String(useWatch({ control, name: "note" }) ?? "");
  // The note's problem is said where the call's failure is: above the note.
  const error = errors.note?.message ?? failed;
  const noteId = useId();
  const classes = [styles.action, className].filter(Boolean).join(" ");
  // The note is where the dialog starts (after the browser's own focus on opening it).
  useEffect(() => {
    if (open) setFocus("note");
  }, [open, setFocus]);

  if (connection.state === "connected")
    return (
      <Link href={`/messages/${encodeURIComponent(connection.conversationId)}`} className={`button button-primary ${classes}`}>
        {INBOX_TEXTS.message}
        <span className="visually-hidden"> {coupleName}</span>
      </Link>
    );
  if (connection.state === "incoming")
    return (
      <Link href="/messages" className={`button button-secondary ${classes}`}>
        {INBOX_TEXTS.incoming}
        <span className="visually-hidden">: answer {coupleName} in your requests</span>
      </Link>
    );
  if (connection.state === "requested" || sent)
    return (
      <span className={`${styles.sent} ${classes}`} role="status">
        {INBOX_TEXTS.requestSent}
      </span>
    );
  if (restriction) return <RestrictedInstead restriction={restriction} className={`${styles.sent} ${classes}`} />;

  const submit = handleSubmit(async ({ note: text }) => {
    setFailed(null);
    try {
      const held = await sendConnectionRequest(coupleId, text);
      if (held) return setFailed(held);
      setSent(true);
      setOpen(false);
      router.refresh();
    } catch (failure) {
      if (failure instanceof ApiError && (failure.code === "ALREADY_REQUESTED" || failure.code === "ALREADY_CONNECTED")) {
        setOpen(false);
        setSent(failure.code === "ALREADY_REQUESTED");
        router.refresh();
      } else setFailed(failure instanceof Error ? failure.message : "Could not send your request");
    }
  });

  const over = note.length > NOTE_MAX;
  return (
    <>
      <button
        type="button"
        className={`button button-primary ${classes}`}
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
      >
        {INBOX_TEXTS.sayHello}
        <span className="visually-hidden"> to {coupleName}</span>
      </button>
      {opened && (
        <Dialog open={open} onClose={() => setOpen(false)} title={`Say hello to ${coupleName}`} closeButton>
          <form onSubmit={submit} noValidate>
            <p className="muted">
              They see your note with your couple&apos;s photo and name. A conversation opens once they accept.{" "}
              <Link href={SAFETY_PAGE}>Meeting couples safely</Link>
            </p>
            {error && <Alert tone="error">{error}</Alert>}
            <div className="field">
              <label htmlFor={noteId}>Note</label>
              <textarea
                id={noteId}
                rows={4}
                required
                aria-invalid={over || undefined}
                aria-describedby={`${noteId}-count`}
                {...register("note")}
              />
              <span id={`${noteId}-count`} className={over ? "field-hint field-count-over" : "field-hint"}>
                {note.length} / {NOTE_MAX} characters
              </span>
            </div>
            <div className="form-actions">
              <button type="submit" className="button button-primary" disabled={busy}>
                {busy ? "Sending..." : INBOX_TEXTS.sendRequest}
              </button>
              <button type="button" className="button button-secondary" onClick={() => setOpen(false)}>
                Cancel
              </button>
            </div>
          </form>
        </Dialog>
      )}
    </>
  );
}
