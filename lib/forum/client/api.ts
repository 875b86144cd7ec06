/**
 * The browser's calls to the forum API (the README's forum API section) and the shapes it
 * answers, as the pages and components use them, through the transport (lib/transport/client.ts):
 * every failure is its ApiError with the server's message, so a form can show it as it is.
 */
import "client-only";
import { api } from "@/lib/transport/client";
import { listSearchParams, type ListQuery } from "../list-href";
import { wholeThread } from "../whole-thread";
import type { KeysetPage, KeysetPagination } from "@/lib/pagination/page";
import type { ForumPost, ForumPostDetail, ForumReply, MentionSuggestion } from "../queries";
import type { ForumScope, ForumTopic, ReactionKind, ReactionTarget, ReportReason, ReportTargetType } from "../rules";

export type { ForumAuthor, ForumMention, ForumPost, ForumPostDetail, ForumReply, MentionSuggestion } from "../queries";

export type PostPage = KeysetPage<ForumPost>;
export type Thread = { post: ForumPostDetail; replies: ForumReply[]; pagination: KeysetPagination };

const send = <T>(method: "POST" | "PUT" | "PATCH" | "DELETE", path: string, body?: unknown) => api<T>(path, { method, body });

export const fetchPosts = (query: ListQuery, signal?: AbortSignal) =>
  api<PostPage>(`/api/forum/posts?${listSearchParams(query)}`, { signal });

/** The thread as its page shows it: its replies page after page, up to THREAD_REPLIES_SHOWN. */
export const fetchThread = (postId: string, signal?: AbortSignal) =>
  wholeThread(({ cursor, limit }) => {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor && { cursor }) });
    return api<{ data: Thread }>(`/api/forum/posts/${encodeURIComponent(postId)}?${query}`, { signal }).then((body) => body.data);
  });

export type NewPost = { title: string; body: string; topic: ForumTopic; scope: ForumScope; photos: string[]; mentions: string[] };
export const createPost = (post: NewPost) => send<{ data: ForumPostDetail }>("POST", "/api/forum/posts", post).then((body) => body.data);

export type NewReply = { body: string; quoteReplyId?: string; mentions: string[] };
export const createReply = (postId: string, reply: NewReply) =>
  send<{ data: ForumReply }>("POST", `/api/forum/posts/${encodeURIComponent(postId)}/replies`, reply).then((body) => body.data);

const targetPath = (target: ReactionTarget, id: string) =>
  `/api/forum/${target === "post" ? "posts" : "replies"}/${encodeURIComponent(id)}`;

export const deleteTarget = (target: ReactionTarget, id: string) => send<unknown>("DELETE", targetPath(target, id));

/** PUT or DELETE: both are idempotent, so a double tap changes nothing. */
export const setReaction = (target: ReactionTarget, id: string, kind: ReactionKind, on: boolean) =>
  send<unknown>(on ? "PUT" : "DELETE", `${targetPath(target, id)}/reactions/${kind}`);

export const sendReport = (report: { targetType: ReportTargetType; targetId: string; reason: ReportReason; note?: string }) =>
  send<unknown>("POST", "/api/reports", report);

export const setBlock = (coupleId: string, blocked: boolean) =>
  send<unknown>(blocked ? "PUT" : "DELETE", `/api/couples/${encodeURIComponent(coupleId)}/block`);

/** A type-ahead: a suggestion list that comes late is stale by the next keystroke, so it is not tried again. */
export const searchMentions = (q: string, signal?: AbortSignal) =>
  api<{ data: MentionSuggestion[] }>(`/api/forum/mentions?q=${encodeURIComponent(q)}`, { signal, retries: 0 }).then((body) => body.data);

/** One photo, as `POST /api/forum/photos` takes it (multipart field `photo`); answers its URL. */
export async function uploadPhoto(file: File): Promise<string> {
  const form = new FormData();
  form.set("photo", file);
  const { data } = await send<{ data: { url: string } }>("POST", "/api/forum/photos", form);
  return data.url;
}

export type PostEdit = { title?: string; body?: string; topic?: ForumTopic; mentions?: string[] };
export const patchPost = (postId: string, patch: PostEdit) =>
  send<{ data: ForumPostDetail }>("PATCH", targetPath("post", postId), patch).then((body) => body.data);

export type ReplyEdit = { body: string; mentions?: string[] };
export const patchReply = (replyId: string, patch: ReplyEdit) =>
  send<{ data: ForumReply }>("PATCH", targetPath("reply", replyId), patch).then((body) => body.data);
