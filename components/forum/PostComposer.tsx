"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import { RestrictedInstead, useRestriction } from "@/components/moderation/RestrictionContext";
import type { ForumScope } from "@/lib/forum/rules";

/** The composer's code (form, mentions, photos) loads when 'New Post' is pressed, not with the list. */
const PostComposerForm = dynamic(() => import("./PostComposerForm").then((m) => m.PostComposerForm), {
  ssr: false,
  loading: () => (
    <p role="status" aria-live="polite">
      Opening...
    </p>
  ),
});

/** 'New Post' opens the composer in place; a restricted couple sees why and until when instead. */
export function PostComposer({ userId, defaultScope }: { userId: string; defaultScope: ForumScope }) {
  const [open, setOpen] = useState(false);
  const restriction = useRestriction();
  if (restriction) return <RestrictedInstead restriction={restriction} />;
  if (!open)
    return (
      <button type="button" className="button button-primary" onClick={() => setOpen(true)}>
        New Post
      </button>
    );
  return <PostComposerForm userId={userId} defaultScope={defaultScope} onCancel={() => setOpen(false)} />;
}
