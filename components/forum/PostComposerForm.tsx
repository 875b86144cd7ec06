"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { useWatch } from "react-hook-form";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { FormActions } from "@/components/ui/FormActions";
import { FORUM_SCOPES, type ForumScope } from "@/lib/forum/rules";
import { createPost } from "@/lib/forum/client/api";
import { postDraft, type PostDraft } from "@/lib/forum/client/drafts";
import { ForumPhotos } from "./ForumPhotos";
import { mergeMention, PostBodyField, TitleField, TopicField } from "./PostFields";
import styles from "./PostComposerForm.module.css";

const loadSchema = () => import("@/lib/forum/schemas").then((schemas) => schemas.postFormSchema);

/**
 * The opened composer: title, topic, body with mentions, up to 4 photos and the scope, each limit
 * shown with a live counter; the draft survives a reload. Publishing opens the post.
 */
export function PostComposerForm({
  userId,
  defaultScope,
  open,
  onCancel,
}: {
  userId: string;
  defaultScope: ForumScope;
  /** Closed, it stays hidden with what was typed (and a photo still uploading lands in it). */
  open: boolean;
  onCancel: () => void;
}) {
  const router = useRouter();
  const [empty] = useState<PostDraft>({ title: "", topic: "", body: "", scope: defaultScope, photos: [], mentions: [] });
  const [uploading, setUploading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const titleRef = useRef<HTMLInputElement>(null);
  const {
    control,
    register,
    handleSubmit,
    setValue,
    clearDraft,
    formState: { errors, isSubmitting, isSubmitSuccessful },
  } = useZodForm(loadSchema, empty, "on-submit", { store: postDraft, userId });
  const { title, topic, body, photos, mentions } = useWatch({ control }) as PostDraft;
  // Once published the page moves to the post: the form stays busy until it has.
  const busy = isSubmitting || (isSubmitSuccessful && failure === null);
  const update = (patch: Partial<PostDraft>) => {
    for (const [field, value] of Object.entries(patch)) setValue(field as keyof PostDraft, value, { shouldDirty: true });
  };
  // It opens because 'New Post' was pressed: the title is where typing starts.
  useEffect(() => {
    if (open) titleRef.current?.focus();
  }, [open]);

  const submit = handleSubmit(async (post) => {
    setFailure(null);
    try {
      const created = await createPost(post);
      clearDraft();
      router.push(`/forum/post/${encodeURIComponent(created.id)}`);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : "Could not publish your post");
    }
  });

  return (
    <form className={`card ${styles.composer}`} hidden={!open} onSubmit={submit} noValidate aria-labelledby="composer-title">
      <h2 id="composer-title">New Post</h2>
      {failure && <Alert tone="error">{failure}</Alert>}
      <TitleField
        idPrefix="post"
        inputRef={titleRef}
        value={title}
        error={errors.title?.message}
        onChange={(text) => update({ title: text })}
      />
      <TopicField
        idPrefix="post"
        placeholder="Choose a topic"
        value={topic}
        error={errors.topic?.message}
        onChange={(value) => update({ topic: value as PostDraft["topic"] })}
      />
      <PostBodyField
        value={body}
        error={errors.body?.message}
        onChange={(text) => update({ body: text })}
        onMention={(mention) => update({ mentions: mergeMention(mentions, mention) })}
      />
      <ForumPhotos
        value={photos}
        onChange={(urls) => update({ photos: urls })}
        onBusy={setUploading}
        disabled={busy}
        error={errors.photos?.message}
      />
      <fieldset className="choice-group">
        <legend>Where to post</legend>
        {FORUM_SCOPES.map((s) => (
          <label key={s.value} className="choice">
            <input type="radio" value={s.value} {...register("scope")} />
            {s.label}
          </label>
        ))}
      </fieldset>
      <FormActions label="Publish Post" busyLabel="Publishing..." busy={busy} disabled={uploading} onCancel={onCancel} />
    </form>
  );
}
