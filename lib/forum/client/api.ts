/**
 * The browser's calls to the forum API (issue 11, API section) and the shapes it answers, as the
 * pages and components use them. Reads go with the session cookie; writes also carry the CSRF
 * token (lib/http/csrf-client.ts). Every failure becomes a ForumRequestError with the server's
 * message, so a form can show it as it is.
 */
import "client-only";
import { csrfFetch } from "@/lib/http/csrf-client";
import { listSearchParams, type ListQuery } from "../list-query";
import type { ForumScope, ForumTopic, ReactionCounts, ReactionKind, ReactionTarget, ReportReason, ReportTargetType } from "../rules";

/** Timestamps arrive as ISO text over JSON and as Dates from a server component. */
export type When = string | Date;

export type ForumAuthor = {
  userId: string;
  firstName: string;
  coupleId: string;
  coupleName: string;
  coupleImageUrl: string | null;
  isVerified: boolean;
};

/** A couple named in a post or reply that the server validated: only these render as links. */
export type ForumMention = { coupleId: string; name: string };

type Reactable = {
  id: string;
  body: string;
  author: ForumAuthor;
  reactions: ReactionCounts;
  myReactions: ReactionKind[];
  /** Who reacted, per kind, when the server sends it (shown on hover and focus). */
  reactors?: Partial<Record<ReactionKind, string[]>>;
  mentions?: ForumMention[];
  createdAt: When;
  editedAt: When | null;
  deleted: boolean;
  removed?: boolean;
};

export type ForumPost = Reactable & {
  title: string;
  topic: ForumTopic;
  scope: ForumScope;
  photos: string[];
  place: string | null;
  distanceBand: string | null;
  replyCount: number;
  lastActivityAt: When;
};

export type ForumReply = Reactable & {
  postId: string;
  quoteReplyId: string | null;
};

export type PostPage = { data: ForumPost[]; pagination: { limit: number; nextCursor: string | null; hasMore: boolean } };
export type Thread = { post: ForumPost; replies: ForumReply[]; pagination: { limit: number; nextCursor: string | null; hasMore: boolean } };

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

export const fetchPosts = (query: ListQuery, signal?: AbortSignal) => getJson<PostPage>(`/api/forum/posts?${listSearchParams(query)}`, signal);

export const fetchThread = (postId: string, signal?: AbortSignal) => getJson<{ data: Thread }>(`/api/forum/posts/${encodeURIComponent(postId)}`, signal).then((body) => body.data);

export type NewPost = { title: string; body: string; topic: ForumTopic; scope: ForumScope; photos: string[]; mentions: string[] };
export const createPost = (post: NewPost) => send<{ data: ForumPost }>("POST", "/api/forum/posts", post).then((body) => body.data);

export type NewReply = { body: string; quoteReplyId?: string; mentions: string[] };
export const createReply = (postId: string, reply: NewReply) =>
  send<{ data: ForumReply }>("POST", `/api/forum/posts/${encodeURIComponent(postId)}/replies`, reply).then((body) => body.data);

const targetPath = (target: ReactionTarget, id: string) => `/api/forum/${target === "post" ? "posts" : "replies"}/${encodeURIComponent(id)}`;

export const deleteTarget = (target: ReactionTarget, id: string) => send<unknown>("DELETE", targetPath(target, id));

/** PUT or DELETE: both are idempotent, so a double tap changes nothing. */
export const setReaction = (target: ReactionTarget, id: string, kind: ReactionKind, on: boolean) =>
  send<unknown>(on ? "PUT" : "DELETE", `${targetPath(target, id)}/reactions/${kind}`);

export const sendReport = (report: { targetType: ReportTargetType; targetId: string; reason: ReportReason; note?: string }) =>
  send<unknown>("POST", "/api/reports", report);

export const setBlock = (coupleId: string, blocked: boolean) => send<unknown>(blocked ? "PUT" : "DELETE", `/api/couples/${encodeURIComponent(coupleId)}/block`);

export const searchMentions = (q: string, signal?: AbortSignal) =>
  getJson<{ data: ForumMention[] }>(`/api/forum/mentions?q=${encodeURIComponent(q)}`, signal).then((body) => body.data);

/** One photo, as `POST /api/forum/photos` takes it (multipart field `photo`); answers its URL. */
export async function uploadPhoto(file: File): Promise<string> {
  const form = new FormData();
  form.set("photo", file);
  const answer = await csrfFetch("/api/forum/photos", { method: "POST", body: form });
  if (!answer.ok) throw failure(answer.status, answer.json);
  return (answer.json as { data: { url: string } }).data.url;
}
