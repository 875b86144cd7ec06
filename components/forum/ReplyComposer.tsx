"use client";

import { RestrictedInstead, useRestriction } from "@/components/moderation/RestrictionContext";
import { useMemo, useState } from "react";
import { Controller } from "react-hook-form";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { REPLY_BODY_MAX } from "@/lib/forum/rules";
import { createReply, type ForumReply } from "@/lib/forum/client/api";
import { replyDraft, type ReplyDraft } from "@/lib/forum/client/drafts";
import { MentionTextarea } from "./MentionTextarea";
import { mergeMention } from "./PostFields";
import styles from "./ReplyComposer.module.css";

type Props = { postId: string; userId: string; quoting: ForumReply | null; onCancelQuote(): void; onReplied(reply: ForumReply): void };

const EMPTY: ReplyDraft = { body: "", mentions: [] };

const loadSchema = () => import("@/lib/forum/schemas").then((schemas) => schemas.replyFormSchema);

/** 'Write a reply' with mentions, a live counter and a per-post draft; 'Reply' ('Replying...'). */
export function ReplyComposer({ postId, userId, quoting, onCancelQuote, onReplied }: Props) {
  const store = useMemo(() => replyDraft(postId), [postId]);
  const [failure, setFailure] = useState<string | null>(null);
  const restriction = useRestriction();
  const {
    control,
    handleSubmit,
    getValues,
    setValue,
    reset,
    clearDraft,
    formState: { errors, isSubmitting: busy },
  } = useZodForm(loadSchema, EMPTY, "on-submit", { store, userId });

  const submit = handleSubmit(async (reply) => {
    setFailure(null);
    try {
      const sent = await createReply(postId, { ...reply, quoteReplyId: quoting?.id });
      clearDraft();
      reset(EMPTY);
      onReplied(sent);
    } catch (problem) {
      setFailure(problem instanceof Error ? problem.message : "Could not send your reply");
    }
  });

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
      <Controller
        control={control}
        name="body"
        render={({ field }) => (
          <MentionTextarea
            label="Write a reply"
            name="reply"
            value={field.value}
            max={REPLY_BODY_MAX}
            rows={4}
            error={errors.body?.message ?? errors.mentions?.message}
            disabled={busy}
            onChange={field.onChange}
            onMention={(mention) => setValue("mentions", mergeMention(getValues("mentions"), mention))}
          />
        )}
      />
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? "Replying..." : "Reply"}
      </button>
    </form>
  );
}
