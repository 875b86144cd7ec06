"use client";

import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useWatch } from "react-hook-form";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { FormActions } from "@/components/ui/FormActions";
import { REPLY_BODY_MAX, type ForumTopic } from "@/lib/forum/rules";
import { patchPost, patchReply, type ForumPostDetail, type ForumReply } from "@/lib/forum/client/api";
import { MentionTextarea } from "./MentionTextarea";
import { mergeMention, PostBodyField, TitleField, TopicField } from "./PostFields";
import styles from "./Editors.module.css";

const loadPostSchema = () => import("@/lib/forum/schemas").then((schemas) => schemas.postEditSchema);
const loadReplySchema = () => import("@/lib/forum/schemas").then((schemas) => schemas.replyEditSchema);

/** Focuses the editor's first field when it opens; Escape (outside an open mention list) cancels. */
function useEditorFocus(onCancel: () => void) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.querySelector<HTMLElement>("input, textarea")?.focus();
  }, []);
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    if (event.target instanceof HTMLTextAreaElement && event.target.getAttribute("aria-controls")) return;
    event.preventDefault();
    onCancel();
  };
  return { form, onKeyDown };
}

/**
 * Saving an edit in place: a refusal shows above the fields; once saved the editor closes, so it
 * stays busy until it has.
 */
function useSaveInPlace(isSubmitting: boolean, isSubmitSuccessful: boolean) {
  const [failure, setFailure] = useState<string | null>(null);
  const busy = isSubmitting || (isSubmitSuccessful && failure === null);
  const attempt = async (save: () => Promise<void>) => {
    setFailure(null);
    try {
      await save();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : "Could not save your changes");
    }
  };
  return { failure, busy, attempt };
}

/**
 * A post edited in place by its author: title, topic and body (with mentions) under the
 * composer's limits and live counters. The scope and photos stay as posted.
 */
export function PostEditor({ post, onSaved, onCancel }: { post: ForumPostDetail; onSaved(post: ForumPostDetail): void; onCancel(): void }) {
  const { form, onKeyDown } = useEditorFocus(onCancel);
  const {
    control,
    handleSubmit,
    getValues,
    setValue,
    formState: { errors, isSubmitting, isSubmitSuccessful },
  } = useZodForm(
    loadPostSchema,
    { title: post.title, topic: post.topic as ForumTopic, body: post.body, mentions: post.mentions },
    "on-submit",
  );
  const [title, topic, body] = useWatch({ control, name: ["title", "topic", "body"] });
  const { failure, busy, attempt } = useSaveInPlace(isSubmitting, isSubmitSuccessful);
  const submit = handleSubmit((patch) => attempt(async () => onSaved(await patchPost(post.id, patch))));

  return (
    <form ref={form} className={`card ${styles.postEditor}`} onSubmit={submit} onKeyDown={onKeyDown} noValidate aria-label="Edit post">
      {failure && <Alert tone="error">{failure}</Alert>}
      <TitleField
        idPrefix="edit-post"
        value={title}
        error={errors.title?.message}
        disabled={busy}
        onChange={(text) => setValue("title", text)}
      />
      <TopicField
        idPrefix="edit-post"
        value={topic}
        error={errors.topic?.message}
        disabled={busy}
        onChange={(value) => setValue("topic", value as ForumTopic)}
      />
      <PostBodyField
        value={body}
        error={errors.body?.message}
        disabled={busy}
        onChange={(text) => setValue("body", text)}
        onMention={(mention) => setValue("mentions", mergeMention(getValues("mentions"), mention))}
      />
      <FormActions label="Save Changes" busyLabel="Saving..." busy={busy} onCancel={onCancel} />
    </form>
  );
}

/** A reply edited in place by its author, under the reply field's limit and live counter. */
export function ReplyEditor({ reply, onSaved, onCancel }: { reply: ForumReply; onSaved(reply: ForumReply): void; onCancel(): void }) {
  const { form, onKeyDown } = useEditorFocus(onCancel);
  const {
    control,
    handleSubmit,
    getValues,
    setValue,
    formState: { errors, isSubmitting, isSubmitSuccessful },
  } = useZodForm(loadReplySchema, { body: reply.body, mentions: reply.mentions }, "on-submit");
  const body = useWatch({ control, name: "body" });
  const { failure, busy, attempt } = useSaveInPlace(isSubmitting, isSubmitSuccessful);
  const submit = handleSubmit((patch) => attempt(async () => onSaved(await patchReply(reply.id, patch))));

  return (
    <form ref={form} onSubmit={submit} onKeyDown={onKeyDown} noValidate aria-label="Edit reply">
      {failure && <Alert tone="error">{failure}</Alert>}
      <MentionTextarea
        label="Edit your reply"
        name="reply"
        value={body}
        max={REPLY_BODY_MAX}
        rows={4}
        error={errors.body?.message ?? errors.mentions?.message}
        disabled={busy}
        onChange={(text) => setValue("body", text)}
        onMention={(mention) => setValue("mentions", mergeMention(getValues("mentions"), mention))}
      />
      <FormActions label="Save Changes" busyLabel="Saving..." busy={busy} onCancel={onCancel} />
    </form>
  );
}
