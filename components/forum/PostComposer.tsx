"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, type FormEvent } from "react";
import { RestrictedInstead, useRestriction } from "@/components/moderation/RestrictionContext";
import { Alert } from "@/components/ui/Alert";
import { FORUM_SCOPES, BODY_MAX, type ForumScope } from "@/lib/forum/rules";
import { createPost } from "@/lib/forum/client/api";
import { postDraft, type PostDraft } from "@/lib/forum/client/drafts";
import { ForumPhotos } from "./ForumPhotos";
import { loadForumSchemas, SCHEMAS_FAILED } from "./forumSchemas";
import { MentionTextarea } from "./MentionTextarea";
import { mentionedIds, mergeMention, TitleField, TopicField } from "./PostFields";
import { useDraft } from "./useDraft";
import styles from "./PostComposer.module.css";

type Errors = Partial<Record<"title" | "topic" | "body" | "photos" | "scope", string>>;

/**
 * 'New Post' opens the composer: title, topic, body with mentions, up to 4 photos and the scope,
 * each limit shown with a live counter; the draft survives a reload. Publishing opens the post.
 */
export function PostComposer({ userId, defaultScope }: { userId: string; defaultScope: ForumScope }) {
  const router = useRouter();
  const empty: PostDraft = { title: "", topic: "", body: "", scope: defaultScope, photos: [], mentions: [] };
  const draft = useDraft(postDraft, userId, empty);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const titleRef = useRef<HTMLInputElement>(null);
  const restriction = useRestriction();
  const { title, topic, body, scope, photos, mentions } = draft.value;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const schemas = await loadForumSchemas();
    if (!schemas) return setFailure(SCHEMAS_FAILED);
    const parsed = schemas.createPostSchema.safeParse({ title, topic, body, scope, photos, mentions: mentionedIds(body, mentions) });
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0]) as keyof Errors;
        found[key] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const post = await createPost(parsed.data);
      draft.clear();
      router.push(`/forum/post/${encodeURIComponent(post.id)}`);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : "Could not publish your post");
      setBusy(false);
    }
  }

  // A restricted couple sees why and until when where 'New Post' would have been.
  if (restriction) return <RestrictedInstead restriction={restriction} />;
  if (!open)
    return (
      <button
        type="button"
        className="button button-primary"
        onClick={() => {
          setOpen(true);
          requestAnimationFrame(() => titleRef.current?.focus());
        }}
      >
        New Post
      </button>
    );

  return (
    <form className={`card ${styles.composer}`} onSubmit={submit} noValidate aria-labelledby="composer-title">
      <h2 id="composer-title">New Post</h2>
      {failure && <Alert tone="error">{failure}</Alert>}
      <TitleField
        idPrefix="post"
        inputRef={titleRef}
        value={title}
        error={errors.title}
        onChange={(text) => draft.update({ title: text })}
      />
      <TopicField
        idPrefix="post"
        placeholder="Choose a topic"
        value={topic}
        error={errors.topic}
        onChange={(value) => draft.update({ topic: value as PostDraft["topic"] })}
      />
      <MentionTextarea
        label="Your post"
        name="body"
        value={body}
        max={BODY_MAX}
        rows={8}
        error={errors.body}
        onChange={(text) => draft.update({ body: text })}
        onMention={(mention) => draft.update({ mentions: mergeMention(mentions, mention) })}
      />
      <ForumPhotos value={photos} onChange={(urls) => draft.update({ photos: urls })} onBusy={setUploading} disabled={busy} />
      {errors.photos && <p className="field-error">{errors.photos}</p>}
      <fieldset className="choice-group">
        <legend>Where to post</legend>
        {FORUM_SCOPES.map((s) => (
          <label key={s.value} className="choice">
            <input
              type="radio"
              name="scope"
              value={s.value}
              checked={scope === s.value}
              onChange={() => draft.update({ scope: s.value })}
            />
            {s.label}
          </label>
        ))}
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy || uploading}>
          {busy ? "Publishing..." : "Publish Post"}
        </button>
        <button type="button" className="button button-secondary" onClick={() => setOpen(false)} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
