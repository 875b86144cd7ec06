"use client";

import { useMemo, useState, type ChangeEvent, type FormEvent, type KeyboardEvent } from "react";
import { useWatch } from "react-hook-form";
import { useZodForm } from "@/components/forms/useZodForm";
import { RestrictedInstead, useRestriction } from "@/components/moderation/RestrictionContext";
import { Alert } from "@/components/ui/Alert";
import { ApiError } from "@/lib/transport/client";
import { compressImage } from "@/lib/images/client/compress";
import { imageProblem } from "@/lib/images/client/photo";
import { sendMessage, uploadMessagePhoto } from "@/lib/messages/client/api";
import { messageDraft } from "@/lib/messages/client/drafts";
import { useTypingSignal } from "@/lib/messages/client/typing";
import { BODY_MAX, MESSAGE_TEXTS } from "@/lib/messages/rules";
import type { Message } from "@/lib/messages/display";
import styles from "./Composer.module.css";

/** The counter shows once a message nears its limit. */
const COUNT_FROM = BODY_MAX - 500;

const loadSchema = () => import("@/lib/messages/schemas").then((schemas) => schemas.sendMessageSchema.pick({ body: true }));

type Props = {
  conversationId: string;
  /** Whose draft the words are (lib/messages/client/drafts.ts). */
  viewerId: string;
  /** The field's id, for 'Reply' to put focus on it. */
  fieldId: string;
  /** The message this one will answer (chosen with 'Reply' in a message's menu), shown above the field. */
  replyTo: Message | null;
  /** Chooses the message to answer, or none. */
  onReplyTo(message: Message | null): void;
  onSent(message: Message): void;
  onEnded(): void;
};

/**
 * Write a message (1-4,000 characters, line breaks kept) with one optional photo, uploaded first
 * through the shared upload client, answering a message when one was chosen; 'Send' (or Ctrl/Cmd+Enter).
 * While words are typed the others see '... is typing' (told at most every 3 s). The field is the
 * conversation's draft (lib/messages/client/drafts.ts): emptied as a message leaves, its words
 * back if it fails, what is typed meanwhile kept.
 */
export function Composer({ conversationId, viewerId, fieldId: id, replyTo, onReplyTo, onSent, onEnded }: Props) {
  const [photo, setPhoto] = useState<{ url: string; progress: number } | null>(null);
  const [uploading, setUploading] = useState<number | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const store = useMemo(() => messageDraft(conversationId), [conversationId]);
  const {
    register,
    handleSubmit,
    setValue,
    setFocus,
    getValues,
    clearErrors,
    control,
    formState: { errors, isSubmitting: busy },
  } = useZodForm(loadSchema, { body: "" }, "on-submit", { store, userId: viewerId });
  const body = String(useWatch({ control, name: "body" }) ?? "");
  const over = body.length > BODY_MAX;
  // The body's problem is said where a photo's or the call's failure is: above the field.
  const error = errors.body?.message ?? failed;
  const restriction = useRestriction();
  const typing = useTypingSignal(conversationId);

  async function attach(file: File | undefined) {
    if (!file) return;
    const problem = imageProblem(file);
    clearErrors();
    if (problem) return setFailed(problem);
    setFailed(null);
    setUploading(0);
    try {
      const url = await uploadMessagePhoto(await compressImage(file), (fraction) => setUploading(fraction));
      setPhoto({ url, progress: 1 });
    } catch (failure) {
      setFailed(failure instanceof Error ? failure.message : "There was an issue uploading your photo. Please try again.");
    } finally {
      setUploading(null);
    }
  }

  // As in any chat, the field empties as the message leaves, so the next one can be written while
  // it is on its way; one that fails comes back, ahead of anything written since: nothing is lost.
  const send = handleSubmit(async ({ body: text }) => {
    const sending = { photo, replyTo };
    setFailed(null);
    setValue("body", "");
    // 'Send' waits while it is on its way (disabled, so it loses the focus): the next one is written in the field.
    setFocus("body");
    setPhoto(null);
    onReplyTo(null);
    try {
      const sent = await sendMessage(conversationId, {
        body: text,
        ...(sending.photo ? { photoUrl: sending.photo.url } : {}),
        ...(sending.replyTo ? { replyToId: sending.replyTo.id } : {}),
      });
      typing.sent();
      onSent(sent);
    } catch (failure) {
      if (failure instanceof ApiError && failure.code === "CONVERSATION_ENDED") return onEnded();
      const writtenSince = String(getValues("body") ?? "");
      setValue("body", writtenSince.trim() === "" ? text : `${text}\n${writtenSince}`);
      setPhoto((current) => current ?? sending.photo);
      // The message answered was deleted before this thread heard of it (lib/messages/service.ts
      // `answerable`): the reply goes, so sending again sends the words as they are.
      if (failure instanceof ApiError && failure.fields.replyToId !== undefined) return setFailed(MESSAGE_TEXTS.replyGone);
      if (sending.replyTo) onReplyTo(sending.replyTo);
      setFailed(failure instanceof Error ? failure.message : "Could not send your message");
    }
  });
  // Too long (the counter says so), sending or uploading: 'Send' waits.
  const submit = (event?: FormEvent) => {
    if (over || busy || uploading !== null) return event?.preventDefault();
    void send(event);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) submit();
  };

  if (restriction)
    return (
      <p className={styles.composer}>
        <RestrictedInstead restriction={restriction} />
      </p>
    );
  return (
    <form className={styles.composer} onSubmit={submit} noValidate>
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
              onReplyTo(null);
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
              setPhoto(null);
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
              void attach(event.target.files?.[0]);
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
          aria-invalid={over || Boolean(errors.body) || undefined}
          aria-describedby={[error && `${id}-error`, body.length >= COUNT_FROM && `${id}-count`].filter(Boolean).join(" ") || undefined}
          onKeyDown={onKeyDown}
          {...register("body", {
            onChange: (event: ChangeEvent<HTMLTextAreaElement>) => {
              if (event.target.value.trim() !== "") typing.typed();
            },
          })}
        />
        <button type="submit" className="button button-primary" disabled={busy || uploading !== null}>
          {busy ? "Sending..." : "Send"}
        </button>
      </div>
      {body.length >= COUNT_FROM && (
        <span id={`${id}-count`} className={over ? "field-hint field-count-over" : "field-hint"}>
          {body.length.toLocaleString("en-US")} / {BODY_MAX.toLocaleString("en-US")} characters
        </span>
      )}
    </form>
  );
}
