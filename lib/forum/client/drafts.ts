/**
 * The forum's drafts in session storage, per user and form (the forms' draft store,
 * lib/forms/draft-store.ts): the composer's, and one reply draft per post. A draft that no
 * longer parses is dropped; its schema (./draft-schemas, zod) loads with the first read.
 */
import "client-only";
import { lazyDraftStore } from "@/lib/forms/draft-store";
import type { ForumScope, ForumTopic } from "../rules";
import type { ForumMention } from "./api";

export type PostDraft = {
  title: string;
  topic: ForumTopic | "";
  body: string;
  scope: ForumScope;
  photos: string[];
  mentions: ForumMention[];
};
export type ReplyDraft = { body: string; mentions: ForumMention[] };

export const postDraft = lazyDraftStore<PostDraft>("forum_post", () => import("./draft-schemas").then((m) => m.postDraftSchema), []);

export const replyDraft = (postId: string) =>
  lazyDraftStore<ReplyDraft>(`forum_reply:${postId}`, () => import("./draft-schemas").then((m) => m.replyDraftSchema), []);
