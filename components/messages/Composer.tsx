"use client";

import { useEffect, useMemo, useState } from "react";
import { useLazyForm } from "@/components/forms/useLazyForm";
import { RestrictedInstead, useRestriction } from "@/components/moderation/RestrictionContext";
import { compressImage } from "@/lib/images/client/compress";
import { imageProblem } from "@/lib/images/client/photo";
import { uploadMessagePhoto } from "@/lib/messages/client/api";
import { messageDraft, type MessageDraft } from "@/lib/messages/client/drafts";
import { useTypingSignal } from "@/lib/messages/client/typing";
import type { ComposerProps } from "./ComposerForm";
import { MessageForm, type Attachment } from "./MessageForm";
import styles from "./Composer.module.css";

/** The full form and the draft's schema with it, so a saved draft is in the field before anything can be typed over it. */
const loadFullForm = () => Promise.all([import("./ComposerForm"), import("@/lib/messages/schemas")]).then(([m]) => m.ComposerForm);

const typed = (words: string): MessageDraft => ({ body: words });

/** The photo to send: checked, resized and uploaded through the shared upload client as it is chosen. */
function useAttachment(): Attachment {
  const [photo, setPhoto] = useState<{ url: string } | null>(null);
  const [uploading, setUploading] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  return {
    photo,
    uploading,
    failure,
    async attach(file) {
      if (!file) return;
      const problem = imageProblem(file);
      if (problem) return setFailure(problem);
      setFailure(null);
      setUploading(0);
      try {
        setPhoto({ url: await uploadMessagePhoto(await compressImage(file), (fraction) => setUploading(fraction)) });
      } catch (failed) {
        setFailure(failed instanceof Error ? failed.message : "There was an issue uploading your photo. Please try again.");
      } finally {
        setUploading(null);
      }
    },
    remove: () => setPhoto(null),
    restore: (sent) => setPhoto((current) => current ?? sent),
    clearFailure: () => setFailure(null),
  };
}

/**
 * Write a message (1-4,000 characters, line breaks kept) with one optional photo, uploaded first
 * through the shared upload client, answering a message when one was chosen; 'Send' (or Ctrl/Cmd+Enter).
 * While words are typed the others see '... is typing' (told at most every 3 s). The field is the
 * conversation's draft (lib/messages/client/drafts.ts). The conversation paints the same frame and
 * field without react-hook-form, zod or the draft's code (MessageForm), which load when the form is
 * reached (a pointer on it, a focus in it, 'Send'), when a message is chosen to answer or when a
 * draft is waiting (useLazyForm); the full form (ComposerForm) then takes its place with what was
 * typed, the caret, and 'Send' if pressed.
 */
export function Composer(props: ComposerProps) {
  const { conversationId, viewerId, fieldId, replyTo, onReplyTo } = props;
  const restriction = useRestriction();
  const typing = useTypingSignal(conversationId);
  const attachment = useAttachment();
  const store = useMemo(() => messageDraft(conversationId), [conversationId]);
  const [body, setBody] = useState("");
  const { full, failure, formRef, load, submit } = useLazyForm({
    loadForm: loadFullForm,
    draft: store,
    userId: viewerId,
    typed,
    submitFailed: "Could not send your message: check your connection and try again",
  });

  useEffect(() => {
    if (replyTo) load();
  }, [load, replyTo]);

  if (restriction)
    return (
      <p className={styles.composer}>
        <RestrictedInstead restriction={restriction} />
      </p>
    );
  if (full) return <full.Form {...props} attachment={attachment} typing={typing} handover={full.handover} />;
  return (
    <MessageForm
      formRef={formRef}
      onSubmit={submit}
      fieldId={fieldId}
      error={attachment.failure ?? failure}
      length={body.length}
      replyTo={replyTo}
      onCancelReply={() => onReplyTo(null)}
      attachment={attachment}
      onReach={load}
      field={{
        name: "body",
        value: body,
        onChange: (event) => {
          setBody(event.target.value);
          if (event.target.value.trim() !== "") typing.typed();
        },
        onKeyDown: (event) => {
          if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) submit();
        },
      }}
    />
  );
}
