"use client";

import dynamic from "next/dynamic";
import { useEffect, useRef, useState } from "react";
import { RestrictedInstead, useRestriction } from "@/components/moderation/RestrictionContext";
import { Opening } from "@/components/ui/Opening";
import type { ForumScope } from "@/lib/forum/rules";

/**
 * The composer's code (form, mentions, photos) loads when 'New Post' is pressed, not with the list;
 * with it the drafts' schema, so a saved draft is in the form before anything can be typed over it.
 */
const PostComposerForm = dynamic(
  () => Promise.all([import("./PostComposerForm"), import("@/lib/forum/client/draft-schemas")]).then(([m]) => m.PostComposerForm),
  { ssr: false, loading: () => <Opening /> },
);

/** 'New Post' opens the composer in place; a restricted couple sees why and until when instead. */
export function PostComposer({ userId, defaultScope }: { userId: string; defaultScope: ForumScope }) {
  const [open, setOpen] = useState(false);
  // The form is rendered from its first opening on, hidden while closed, as it was typed.
  const [opened, setOpened] = useState(false);
  const newPost = useRef<HTMLButtonElement>(null);
  // 'Cancel' puts focus back where the composer was opened, not on the page's start.
  useEffect(() => {
    if (opened && !open) newPost.current?.focus();
  }, [opened, open]);
  const restriction = useRestriction();
  if (restriction) return <RestrictedInstead restriction={restriction} />;
  return (
    <>
      {!open && (
        <button
          ref={newPost}
          type="button"
          className="button button-primary"
          onClick={() => {
            setOpened(true);
            setOpen(true);
          }}
        >
          New Post
        </button>
      )}
      {opened && <PostComposerForm userId={userId} defaultScope={defaultScope} open={open} onCancel={() => setOpen(false)} />}
    </>
  );
}
