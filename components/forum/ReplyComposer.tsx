"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { RestrictedInstead, useRestriction } from "@/components/moderation/RestrictionContext";
import { REPLY_BODY_MAX } from "@/lib/forum/rules";
import type { ForumMention, ForumReply } from "@/lib/forum/client/api";
import { replyDraft } from "@/lib/forum/client/drafts";
import { hasDraft, sessionStore } from "@/lib/forms/draft-store";
import { MentionTextarea } from "./MentionTextarea";
import { mergeMention } from "./PostFields";
import { ReplyForm, type ReplyHandover } from "./ReplyForm";
import styles from "./ReplyForm.module.css";
import type { ReplyComposerForm } from "./ReplyComposerForm";

type Props = { postId: string; userId: string; quoting: ForumReply | null; onCancelQuote(): void; onReplied(reply: ForumReply): void };

/** The full form and the drafts' schema with it, so a saved draft is in the form before anything can be typed over it. */
const loadFullForm = () =>
  Promise.all([import("./ReplyComposerForm"), import("@/lib/forum/client/draft-schemas")]).then(([m]) => m.ReplyComposerForm);

/**
 * The reply form as the thread paints it: the same frame and field as the full form (its counter
 * and mentions work), without react-hook-form, zod or the draft's code, which load when the form
 * is reached (a pointer on it, a focus in it, 'Reply'), when a reply is quoted or when a draft is
 * waiting; the full form then takes its place with what was typed, the caret, and 'Reply' if pressed.
 */
export function ReplyComposer(props: Props) {
  const { postId, userId, quoting, onCancelQuote } = props;
  const restriction = useRestriction();
  const store = useMemo(() => replyDraft(postId), [postId]);
  const [full, setFull] = useState<{ Form: typeof ReplyComposerForm; handover: ReplyHandover } | null>(null);
  const [body, setBody] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const mentions = useRef<ForumMention[]>([]);
  const submitted = useRef(false);
  const loading = useRef(false);

  const load = useCallback(() => {
    if (loading.current) return;
    loading.current = true;
    loadFullForm().then(
      (Form) => {
        // Read and swapped in one go: no key can land between them.
        const field = form.current?.querySelector("textarea");
        const caret = field && document.activeElement === field ? ([field.selectionStart, field.selectionEnd] as const) : null;
        const handover = { body: field?.value ?? "", mentions: mentions.current, caret, submit: submitted.current };
        flushSync(() => setFull({ Form, handover }));
      },
      () => {
        // Tried again on the next reach; what was typed stays in the field.
        loading.current = false;
        if (submitted.current) setFailure("Could not send your reply: check your connection and try again");
        submitted.current = false;
      },
    );
  }, []);

  useEffect(() => {
    if (hasDraft(sessionStore(), userId, store.form)) load();
  }, [load, userId, store]);
  useEffect(() => {
    if (quoting) load();
  }, [load, quoting]);
  // Leaving before the full form came: what was typed is the draft, as the full form would keep it.
  useEffect(() => {
    if (full) return;
    const keep = () => {
      const typed = form.current?.querySelector("textarea")?.value ?? "";
      if (typed !== "") store.saveText(sessionStore(), userId, { body: typed, mentions: mentions.current });
    };
    window.addEventListener("pagehide", keep);
    return () => window.removeEventListener("pagehide", keep);
  }, [full, store, userId]);

  if (restriction)
    return (
      <p className={`card ${styles.form}`}>
        <RestrictedInstead restriction={restriction} />
      </p>
    );
  if (full) return <full.Form {...props} handover={full.handover} />;
  return (
    <ReplyForm
      formRef={form}
      onSubmit={(event) => {
        event.preventDefault();
        setFailure(null);
        submitted.current = true;
        load();
      }}
      failure={failure}
      quoting={quoting}
      onCancelQuote={onCancelQuote}
      onReach={load}
    >
      <MentionTextarea
        label="Write a reply"
        name="reply"
        value={body}
        max={REPLY_BODY_MAX}
        rows={4}
        onChange={setBody}
        onMention={(mention) => {
          mentions.current = mergeMention(mentions.current, mention);
        }}
      />
    </ReplyForm>
  );
}
