/**
 * The browser's calls to the forum API (issue 11, API section) and the shapes it answers, as the
 * pages and components use them. Reads go with the session cookie; writes also carry the CSRF
 * token (lib/http/csrf-client.ts). Every failure becomes a ForumRequestError with the server's
 * message, so a form can show it as it is.
 */
import "client-only";
import { csrfFetch } from "@/lib/http/csrf-client";
import { listSearchParams, type ListQuery } from "../list-href";
import type { KeysetPage, KeysetPagination } from "@/lib/pagination/page";
import type { ForumPost, ForumPostDetail, ForumReply, MentionSuggestion } from "../queries";
import type { ForumScope, ForumTopic, ReactionKind, ReactionTarget, ReportReason, ReportTargetType } from "../rules";

export type { ForumAuthor, ForumMention, ForumPost, ForumPostDetail, ForumReply, MentionSuggestion } from "../queries";

export type PostPage = KeysetPage<ForumPost>;
export type Thread = { post: ForumPostDetail; replies: ForumReply[]; pagination: KeysetPagination };

export class ForumRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = "ForumRequestError";
  }
}

const FAILED = "Something went wrong. Please try again.";

/** The server's `{error: {code, message}}`, or a generic message for a network failure or a bare status. */
function failure(status: number, json: unknown): ForumRequestError {
  const error = (json as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const message = typeof error?.message === "string" ? error.message : FAILED;
  return new ForumRequestError(status, message, typeof error?.code === "string" ? error.code : undefined);
}

async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, { signal, cache: "no-store", headers: { accept: "application/json" } });
  const json: unknown = await response.json().catch(() => null);
  if (!response.ok) throw failure(response.status, json);
  return json as T;
}

async function send<T>(method: string, path: string, body?: unknown): Promise<T> {
  const answer = await csrfFetch(path, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
  if (!answer.ok) throw failure(answer.status, answer.json);
  return answer.json as T;
}

export const fetchPosts = (query: ListQuery, signal?: AbortSignal) =>
  getJson<PostPage>(`/api/forum/posts?${listSearchParams(query)}`, signal);

export const fetchThread = (postId: string, signal?: AbortSignal) =>
  getJson<{ data: Thread }>(`/api/forum/posts/${encodeURIComponent(postId)}`, signal).then((body) => body.data);

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

export const searchMentions = (q: string, signal?: AbortSignal) =>
  getJson<{ data: MentionSuggestion[] }>(`/api/forum/mentions?q=${encodeURIComponent(q)}`, signal).then((body) => body.data);

/** One photo, as `POST /api/forum/photos` takes it (multipart field `photo`); answers its URL. */
export async function uploadPhoto(file: File): Promise<string> {
  const form = new FormData();
  form.set("photo", file);
  const answer = await csrfFetch("/api/forum/photos", { method: "POST", body: form });
  if (!answer.ok) throw failure(answer.status, answer.json);
  return (answer.json as { data: { url: string } }).data.url;
}

export type PostEdit = { title?: string; body?: string; topic?: ForumTopic; mentions?: string[] };
export const patchPost = (postId: string, patch: PostEdit) =>
  send<{ data: ForumPostDetail }>("PATCH", targetPath("post", postId), patch).then((body) => body.data);

export type ReplyEdit = { body: string; mentions?: string[] };
export const patchReply = (replyId: string, patch: ReplyEdit) =>
  send<{ data: ForumReply }>("PATCH", targetPath("reply", replyId), patch).then((body) => body.data);
