"use client";

import { useCallback, useMemo, useRef, useState, type ChangeEvent, type FormEvent, type KeyboardEvent } from "react";
import { useWatch } from "react-hook-form";
import { useHandover, type Handover } from "@/components/forms/useLazyForm";
import { useZodForm } from "@/components/forms/useZodForm";
import { ApiError } from "@/lib/transport/client";
import { sendMessage } from "@/lib/messages/client/api";
import { messageDraft, type MessageDraft } from "@/lib/messages/client/drafts";
import { sendKey, type UnansweredMessage } from "@/lib/messages/client/send-key";
import { BODY_MAX, MESSAGE_TEXTS } from "@/lib/messages/rules";
import type { Message } from "@/lib/messages/display";
import { MessageForm, type Attachment } from "./MessageForm";

const loadSchema = () => import("@/lib/messages/schemas").then((schemas) => schemas.sendMessageSchema.pick({ body: true }));

export type ComposerProps = {
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

type Props = ComposerProps & {
  attachment: Attachment;
  /** The others are told '... is typing' (useTypingSignal), and again at once after a message is sent. */
  typing: { typed(): void; sent(): void };
  handover: Handover<MessageDraft>;
};

/**
 * The composer's full form: the conversation's draft in the field (emptied as a message leaves,
 * its words back if it fails, what is typed meanwhile kept), the checks and the sending. It takes
 * over from the light form (Composer) with what was typed there, as typed while the draft loaded:
 * kept, and the draft from then on.
 */
export function ComposerForm({
  conversationId,
  viewerId,
  fieldId: id,
  replyTo,
  onReplyTo,
  onSent,
  onEnded,
  attachment,
  typing,
  handover,
}: Props) {
  const store = useMemo(() => messageDraft(conversationId), [conversationId]);
  const form = useRef<HTMLFormElement>(null);
  const [failed, setFailed] = useState<string | null>(null);
  // The message whose call failed, with its key: the same sent again goes under it (lib/messages/client/send-key.ts).
  const [unanswered, setUnanswered] = useState<UnansweredMessage | null>(null);
  const { photo, uploading } = attachment;
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

  const take = useCallback(
    (typed: MessageDraft) => {
      if (typed.body !== "") setValue("body", typed.body);
    },
    [setValue],
  );
  useHandover(handover, form, take);

  // As in any chat, the field empties as the message leaves, so the next one can be written while
  // it is on its way; one that fails comes back, ahead of anything written since: nothing is lost.
  const send = handleSubmit(async ({ body: text }) => {
    const sending = { photo, replyTo };
    const outgoing = { body: text, photoUrl: photo?.url ?? null, replyToId: replyTo?.id ?? null };
    const clientKey = sendKey(unanswered, outgoing);
    setUnanswered(null);
    setFailed(null);
    attachment.clearFailure();
    setValue("body", "");
    // 'Send' waits while it is on its way (disabled, so it loses the focus): the next one is written in the field.
    setFocus("body");
    attachment.remove();
    onReplyTo(null);
    try {
      const sent = await sendMessage(conversationId, {
        body: text,
        ...(sending.photo ? { photoUrl: sending.photo.url } : {}),
        ...(sending.replyTo ? { replyToId: sending.replyTo.id } : {}),
        ...(clientKey ? { clientKey } : {}),
      });
      typing.sent();
      onSent(sent);
    } catch (failure) {
      if (failure instanceof ApiError && failure.code === "CONVERSATION_ENDED") return onEnded();
      setUnanswered({ ...outgoing, key: clientKey });
      const writtenSince = String(getValues("body") ?? "");
      setValue("body", writtenSince.trim() === "" ? text : `${text}\n${writtenSince}`);
      attachment.restore(sending.photo);
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

  return (
    <MessageForm
      formRef={form}
      onSubmit={submit}
      fieldId={id}
      // The body's problem is said where a photo's or the call's failure is: above the field.
      error={errors.body?.message ?? failed ?? attachment.failure}
      invalid={Boolean(errors.body)}
      length={body.length}
      replyTo={replyTo}
      onCancelReply={() => onReplyTo(null)}
      attachment={{
        ...attachment,
        attach: (file) => {
          clearErrors();
          setFailed(null);
          attachment.attach(file);
        },
      }}
      busy={busy}
      field={{
        onKeyDown: (event: KeyboardEvent) => {
          if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) submit();
        },
        ...register("body", {
          onChange: (event: ChangeEvent<HTMLTextAreaElement>) => {
            if (event.target.value.trim() !== "") typing.typed();
          },
        }),
      }}
    />
  );
}
