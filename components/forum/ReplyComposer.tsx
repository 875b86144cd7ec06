"use client";

import { RestrictedInstead, useRestriction } from "@/components/moderation/RestrictionContext";
import { useMemo, useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/Alert";
import { REPLY_BODY_MAX } from "@/lib/forum/rules";
import { createReply, type ForumReply } from "@/lib/forum/client/api";
import { replyDraft, type ReplyDraft } from "@/lib/forum/client/drafts";
import { loadForumSchemas, SCHEMAS_FAILED } from "./forumSchemas";
import { MentionTextarea } from "./MentionTextarea";
import { mentionedIds } from "./PostFields";
import { useDraft } from "./useDraft";
import styles from "./ReplyComposer.module.css";

type Props = { postId: string; userId: string; quoting: ForumReply | null; onCancelQuote(): void; onReplied(reply: ForumReply): void };

const EMPTY: ReplyDraft = { body: "", mentions: [] };

/** 'Write a reply' with mentions, a live counter and a per-post draft; 'Reply' ('Replying...'). */
export function ReplyComposer({ postId, userId, quoting, onCancelQuote, onReplied }: Props) {
  const store = useMemo(() => replyDraft(postId), [postId]);
  const draft = useDraft(store, userId, EMPTY);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const restriction = useRestriction();
  const { body, mentions } = draft.value;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const schemas = await loadForumSchemas();
    if (!schemas) return setFailure(SCHEMAS_FAILED);
    const parsed = schemas.createReplySchema.safeParse({ body, quoteReplyId: quoting?.id, mentions: mentionedIds(body, mentions) });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      const reply = await createReply(postId, parsed.data);
      draft.clear();
      onReplied(reply);
    } catch (problem) {
      setFailure(problem instanceof Error ? problem.message : "Could not send your reply");
    } finally {
      setBusy(false);
    }
  }

  if (restriction)
    return (
      <p className={`card ${styles.form}`}>
        <RestrictedInstead restriction={restriction} />
      </p>
    );
  return (
    <form className={`card ${styles.form}`} onSubmit={submit} noValidate aria-label="Reply to this post">
      {failure && <Alert tone="error">{failure}</Alert>}
      {quoting && (
        <p className={styles.quoting}>
          Quoting {quoting.author.signature}{" "}
          <button type="button" className="button-link" onClick={onCancelQuote}>
            Remove quote
          </button>
        </p>
      )}
      <MentionTextarea
        label="Write a reply"
        name="reply"
        value={body}
        max={REPLY_BODY_MAX}
        rows={4}
        error={error}
        disabled={busy}
        onChange={(text) => draft.update({ body: text })}
        onMention={(mention) => draft.update({ mentions: [...mentions.filter((m) => m.coupleId !== mention.coupleId), mention] })}
      />
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? "Replying..." : "Reply"}
      </button>
    </form>
  );
}
