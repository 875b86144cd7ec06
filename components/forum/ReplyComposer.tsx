"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useLazyForm } from "@/components/forms/useLazyForm";
import { RestrictedInstead, useRestriction } from "@/components/moderation/RestrictionContext";
import type { ForumMention, ForumReply } from "@/lib/forum/client/api";
import { replyDraft } from "@/lib/forum/client/drafts";
import { MentionTextarea } from "./MentionTextarea";
import { mergeMention } from "./PostFields";
import { REPLY_FIELD, ReplyForm } from "./ReplyForm";
import styles from "./ReplyForm.module.css";

type Props = { postId: string; userId: string; quoting: ForumReply | null; onCancelQuote(): void; onReplied(reply: ForumReply): void };

/** The full form and the drafts' schema with it, so a saved draft is in the form before anything can be typed over it. */
const loadFullForm = () =>
  Promise.all([import("./ReplyComposerForm"), import("@/lib/forum/client/draft-schemas")]).then(([m]) => m.ReplyComposerForm);

/**
 * The reply form as the thread paints it: the same frame and field as the full form (its counter
 * and mentions work), without react-hook-form, zod or the draft's code, which load when the form
 * is reached (a pointer on it, a focus in it, 'Reply'), when a reply is quoted or when a draft is
 * waiting (useLazyForm); the full form then takes its place with what was typed, the caret, and
 * 'Reply' if pressed.
 */
export function ReplyComposer(props: Props) {
  const { postId, userId, quoting, onCancelQuote } = props;
  const restriction = useRestriction();
  const store = useMemo(() => replyDraft(postId), [postId]);
  const [body, setBody] = useState("");
  const mentions = useRef<ForumMention[]>([]);
  const typed = useCallback((words: string) => ({ body: words, mentions: mentions.current }), []);
  const { full, failure, formRef, load, submit } = useLazyForm({
    loadForm: loadFullForm,
    draft: store,
    userId,
    typed,
    submitFailed: "Could not send your reply: check your connection and try again",
  });

  useEffect(() => {
    if (quoting) load();
  }, [load, quoting]);

  if (restriction)
    return (
      <p className={`card ${styles.form}`}>
        <RestrictedInstead restriction={restriction} />
      </p>
    );
  if (full) return <full.Form {...props} handover={full.handover} />;
  return (
    <ReplyForm formRef={formRef} onSubmit={submit} failure={failure} quoting={quoting} onCancelQuote={onCancelQuote} onReach={load}>
      <MentionTextarea
        {...REPLY_FIELD}
        value={body}
        onChange={setBody}
        onMention={(mention) => {
          mentions.current = mergeMention(mentions.current, mention);
        }}
      />
    </ReplyForm>
  );
}
