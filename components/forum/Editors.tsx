"use client";

import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { Alert } from "@/components/ui/Alert";
import { BODY_MAX, REPLY_BODY_MAX, type ForumTopic } from "@/lib/forum/rules";
import { patchPost, patchReply, type ForumMention, type ForumPostDetail, type ForumReply } from "@/lib/forum/client/api";
import { loadForumSchemas, SCHEMAS_FAILED } from "./forumSchemas";
import { MentionTextarea } from "./MentionTextarea";
import { mentionedIds, mergeMention, TitleField, TopicField } from "./PostFields";
import styles from "./Editors.module.css";

type Errors = Partial<Record<"title" | "topic" | "body", string>>;

/** The first issue of each field, keyed by the field's name. */
function fieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Errors {
  const found: Errors = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? "body") as keyof Errors;
    found[key] ??= issue.message;
  }
  return found;
}

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

function Actions({ busy, onCancel }: { busy: boolean; onCancel(): void }) {
  return (
    <div className="form-actions">
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? "Saving..." : "Save Changes"}
      </button>
      <button type="button" className="button button-secondary" onClick={onCancel} disabled={busy}>
        Cancel
      </button>
    </div>
  );
}

/**
 * A post edited in place by its author: title, topic and body (with mentions) under the
 * composer's limits and live counters. The scope and photos stay as posted.
 */
export function PostEditor({ post, onSaved, onCancel }: { post: ForumPostDetail; onSaved(post: ForumPostDetail): void; onCancel(): void }) {
  const [title, setTitle] = useState(post.title);
  const [topic, setTopic] = useState(post.topic as ForumTopic);
  const [body, setBody] = useState(post.body);
  const [mentions, setMentions] = useState<ForumMention[]>(post.mentions);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { form, onKeyDown } = useEditorFocus(onCancel);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const schemas = await loadForumSchemas();
    if (!schemas) return setFailure(SCHEMAS_FAILED);
    const parsed = schemas.patchPostSchema.safeParse({ title, topic, body, mentions: mentionedIds(body, mentions) });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      onSaved(await patchPost(post.id, parsed.data));
    } catch (error) {
      setFailure(error instanceof Error ? error.message : "Could not save your changes");
      setBusy(false);
    }
  }

  return (
    <form ref={form} className={`card ${styles.postEditor}`} onSubmit={submit} onKeyDown={onKeyDown} noValidate aria-label="Edit post">
      {failure && <Alert tone="error">{failure}</Alert>}
      <TitleField idPrefix="edit-post" value={title} error={errors.title} disabled={busy} onChange={setTitle} />
      <TopicField
        idPrefix="edit-post"
        value={topic}
        error={errors.topic}
        disabled={busy}
        onChange={(value) => setTopic(value as ForumTopic)}
      />
      <MentionTextarea
        label="Your post"
        name="body"
        value={body}
        max={BODY_MAX}
        rows={8}
        error={errors.body}
        disabled={busy}
        onChange={setBody}
        onMention={(mention) => setMentions((all) => mergeMention(all, mention))}
      />
      <Actions busy={busy} onCancel={onCancel} />
    </form>
  );
}

/** A reply edited in place by its author, under the reply field's limit and live counter. */
export function ReplyEditor({ reply, onSaved, onCancel }: { reply: ForumReply; onSaved(reply: ForumReply): void; onCancel(): void }) {
  const [body, setBody] = useState(reply.body);
  const [mentions, setMentions] = useState<ForumMention[]>(reply.mentions);
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { form, onKeyDown } = useEditorFocus(onCancel);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const schemas = await loadForumSchemas();
    if (!schemas) return setFailure(SCHEMAS_FAILED);
    const parsed = schemas.patchReplySchema.safeParse({ body, mentions: mentionedIds(body, mentions) });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      onSaved(await patchReply(reply.id, parsed.data));
    } catch (problem) {
      setFailure(problem instanceof Error ? problem.message : "Could not save your changes");
      setBusy(false);
    }
  }

  return (
    <form ref={form} onSubmit={submit} onKeyDown={onKeyDown} noValidate aria-label="Edit reply">
      {failure && <Alert tone="error">{failure}</Alert>}
      <MentionTextarea
        label="Edit your reply"
        name="reply"
        value={body}
        max={REPLY_BODY_MAX}
        rows={4}
        error={error}
        disabled={busy}
        onChange={setBody}
        onMention={(mention) => setMentions((all) => mergeMention(all, mention))}
      />
      <Actions busy={busy} onCancel={onCancel} />
    </form>
  );
}
