"use client";

import { useLayoutEffect, useMemo, useRef, useState } from "react";
import { Controller } from "react-hook-form";
import { useZodForm } from "@/components/forms/useZodForm";
import { REPLY_BODY_MAX } from "@/lib/forum/rules";
import { createReply, type ForumReply } from "@/lib/forum/client/api";
import { replyDraft, type ReplyDraft } from "@/lib/forum/client/drafts";
import { MentionTextarea } from "./MentionTextarea";
import { mergeMention } from "./PostFields";
import { ReplyForm, type ReplyHandover } from "./ReplyForm";

type Props = {
  postId: string;
  userId: string;
  quoting: ForumReply | null;
  onCancelQuote(): void;
  onReplied(reply: ForumReply): void;
  handover: ReplyHandover;
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

  // Before the first paint: the typed words in the field, then (once they are rendered) the caret
  // where it was and the reply sent if 'Reply' was pressed, so the swap loses nothing.
  const [handedOver, setHandedOver] = useState(false);
  useLayoutEffect(() => {
    if (handover.body !== "") setValue("body", handover.body);
    if (handover.mentions.length > 0) setValue("mentions", handover.mentions);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the caret goes back once the words are rendered, before the first paint
    setHandedOver(true);
  }, [handover, setValue]);
  useLayoutEffect(() => {
    if (!handedOver) return;
    const field = form.current?.querySelector("textarea");
    if (handover.caret && field) {
      // The caret first: the field's focus looks behind it for a mention being typed.
      field.setSelectionRange(...handover.caret);
      field.focus();
    }
    if (handover.submit) form.current?.requestSubmit();
  }, [handedOver, handover]);

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
    </ReplyForm>
  );
}
