/**
 * What a stored forum draft must parse as (zod): loaded with the first draft read, never on the
 * forum's first paint (lib/forum/client/drafts.ts). A field that no longer parses is dropped.
 */
import "client-only";
import { z } from "zod";
import { SCOPE_VALUES, TOPIC_VALUES } from "../rules";
import type { PostDraft, ReplyDraft } from "./drafts";

const mentions = z.array(z.object({ coupleId: z.string(), name: z.string() })).catch([]);

export const postDraftSchema: z.ZodType<PostDraft> = z.object({
  title: z.string().catch(""),
  topic: z.enum(TOPIC_VALUES).or(z.literal("")).catch(""),
  body: z.string().catch(""),
  scope: z.enum(SCOPE_VALUES).catch("global"),
  // Uploaded already: the URLs stay valid, so the photos survive a reload too.
  photos: z.array(z.string()).catch([]),
  mentions,
});

export const replyDraftSchema: z.ZodType<ReplyDraft> = z.object({ body: z.string().catch(""), mentions });
