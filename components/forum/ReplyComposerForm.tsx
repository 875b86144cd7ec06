"use client";

import { useCallback, useMemo, useRef, useState } from "react";
import { Controller } from "react-hook-form";
import { useHandover, type Handover } from "@/components/forms/useLazyForm";
import { useZodForm } from "@/components/forms/useZodForm";
import { createReply, type ForumReply } from "@/lib/forum/client/api";
import { replyDraft, type ReplyDraft } from "@/lib/forum/client/drafts";
import { MentionTextarea } from "./MentionTextarea";
import { mergeMention } from "./PostFields";
import { REPLY_FIELD, ReplyForm } from "./ReplyForm";

type Props = {
  postId: string;
  userId: string;
  quoting: ForumReply | null;
  onCancelQuote(): void;
  onReplied(reply: ForumReply): void;
  handover: Handover<ReplyDraft>;
};

const EMPTY: ReplyDraft = { body: "", mentions: [] };

const loadSchema = () => import("@/lib/forum/schemas").then((schemas) => schemas.replyFormSchema);

/**
 * 'Write a reply' with mentions, a live counter and a per-post draft; 'Reply' ('Replying...').
 * It takes over from the light form (ReplyComposer) with what was typed there, as typed while
 * the draft loaded: kept, and the draft from then on.
 */
export function ReplyComposerForm({ postId, userId, quoting, onCancelQuote, onReplied, handover }: Props) {
  const store = useMemo(() => replyDraft(postId), [postId]);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const {
    control,
    handleSubmit,
    getValues,
    setValue,
    reset,
    clearDraft,
    formState: { errors, isSubmitting: busy },
  } = useZodForm(loadSchema, EMPTY, "on-submit", { store, userId });

  // Before the first paint: the typed words and mentions in the field, then the caret and a pressed 'Reply'.
  const take = useCallback(
    (typed: ReplyDraft) => {
      if (typed.body !== "") setValue("body", typed.body);
      if (typed.mentions.length > 0) setValue("mentions", typed.mentions);
    },
    [setValue],
  );
  useHandover(handover, form, take);

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

  return (
    <ReplyForm formRef={form} onSubmit={submit} failure={failure} quoting={quoting} onCancelQuote={onCancelQuote} busy={busy}>
      <Controller
        control={control}
        name="body"
        render={({ field }) => (
          <MentionTextarea
            {...REPLY_FIELD}
            value={field.value}
            error={errors.body?.message ?? errors.mentions?.message}
            disabled={busy}
            onChange={field.onChange}
            onMention={(mention) => setValue("mentions", mergeMention(getValues("mentions"), mention))}
          />
        )}
      />
    </ReplyForm>
  );
}
