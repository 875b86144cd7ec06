"use client";

import Link from "next/link";
import { useEffect, useId, useState } from "react";
import { useWatch } from "react-hook-form";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { FormActions } from "@/components/ui/FormActions";
import { Dialog } from "@/components/ui/Dialog";
import { ApiError } from "@/lib/transport/client";
import { sendConnectionRequest } from "@/lib/messages/client/api";
import { NOTE_MAX } from "@/lib/connections/rules";
import { SAFETY_PAGE } from "@/lib/safety/rules";
import { INBOX_TEXTS } from "@/lib/messages/display";

type Props = {
  coupleId: string;
  coupleName: string;
  open: boolean;
  onClose(): void;
  /** The request is out (`requested`: pending), or the couples turned out to be connected already (false). */
  onDone(requested: boolean): void;
};

const loadSchema = () => import("@/lib/connections/schemas").then((schemas) => schemas.helloFormSchema);

/** 'Say hello' asks with a short note ('Send request'); a note the spam rule holds is said here. */
export function HelloDialog({ coupleId, coupleName, open, onClose, onDone }: Props) {
  const [failed, setFailed] = useState<string | null>(null);
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
  // The note is where the dialog starts (after the browser's own focus on opening it).
  useEffect(() => {
    if (open) setFocus("note");
  }, [open, setFocus]);

  const submit = handleSubmit(async ({ note: text }) => {
    setFailed(null);
    try {
      const held = await sendConnectionRequest(coupleId, text);
      if (held) return setFailed(held);
      onDone(true);
    } catch (failure) {
      // Already talking: the card becomes the conversation's link. A hello that cannot go now (one
      // either way within 90 days) is said so: the card never claims one was sent.
      if (failure instanceof ApiError && failure.code === "ALREADY_CONNECTED") onDone(false);
      else setFailed(failure instanceof Error ? failure.message : "Could not send your request");
    }
  });

  const over = note.length > NOTE_MAX;
  return (
    <Dialog open={open} onClose={onClose} title={`Say hello to ${coupleName}`} closeButton>
      <form onSubmit={submit} noValidate>
        <p className="muted">
          They see your note with your couple&apos;s photo and name. A conversation opens once they accept.{" "}
          <Link href={SAFETY_PAGE}>Meeting couples safely</Link>
        </p>
        {error && (
          <Alert tone="error" id={`${noteId}-error`}>
            {error}
          </Alert>
        )}
        <div className="field">
          <label htmlFor={noteId}>Note</label>
          <textarea
            id={noteId}
            rows={4}
            required
            aria-invalid={over || Boolean(errors.note) || undefined}
            aria-describedby={error ? `${noteId}-error ${noteId}-count` : `${noteId}-count`}
            {...register("note")}
          />
          <span id={`${noteId}-count`} className={over ? "field-hint field-count-over" : "field-hint"}>
            {note.length} / {NOTE_MAX} characters
          </span>
        </div>
        <FormActions label={INBOX_TEXTS.sendRequest} busyLabel="Sending..." busy={busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
