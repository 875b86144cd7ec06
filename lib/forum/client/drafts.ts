/**
 * The forum's drafts in session storage, per user and form (the onboarding drafts' store,
 * lib/onboarding/drafts.ts): the composer's, and one reply draft per post. A draft that no longer
 * parses is dropped.
 */
import "client-only";
import { z } from "zod";
import { draftStore } from "@/lib/onboarding/drafts";
import { SCOPE_VALUES, TOPIC_VALUES, type ForumScope, type ForumTopic } from "../rules";
import type { ForumMention } from "./api";

export type PostDraft = { title: string; topic: ForumTopic | ""; body: string; scope: ForumScope; photos: string[]; mentions: ForumMention[] };
export type ReplyDraft = { body: string; mentions: ForumMention[] };

const mentions = z.array(z.object({ coupleId: z.string(), name: z.string() })).catch([]);

export const postDraft = draftStore<PostDraft>(
  "forum_post",
  z.object({
    title: z.string().catch(""),
    topic: z.enum(TOPIC_VALUES).or(z.literal("")).catch(""),
    body: z.string().catch(""),
    scope: z.enum(SCOPE_VALUES).catch("global"),
    // Uploaded already: the URLs stay valid, so the photos survive a reload too.
    photos: z.array(z.string()).catch([]),
    mentions,
  }),
  [],
);

export const replyDraft = (postId: string) => draftStore<ReplyDraft>(`forum_reply:${postId}`, z.object({ body: z.string().catch(""), mentions }), []);
