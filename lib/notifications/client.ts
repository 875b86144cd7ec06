/**
 * The browser's calls to the notifications API, shared by the bell and the notifications page.
 * Reads go with the session cookie alone; marking read also sends the session's CSRF token
 * (lib/http/csrf-client.ts).
 */
import "client-only";
import { csrfFetch } from "@/lib/http/csrf-client";
import { UNREAD_RETRIES, type NotificationItem, type Pagination } from "./rules";

export class NotificationsRequestError extends Error {
  constructor(readonly status: number) {
    super(`Notifications request failed with status ${status}`);
    this.name = "NotificationsRequestError";
  }
}

/** Section 8: gateway answers and dropped connections are worth another try; the rest are not. */
export function isTransient(error: unknown): boolean {
  if (error instanceof NotificationsRequestError) return [502, 503, 504].includes(error.status);
  if (error instanceof DOMException && error.name === "AbortError") return false;
  const message = error instanceof Error ? error.message : String(error);
  return /Failed to fetch|Network request failed|NetworkError|ECONNRESET|ETIMEDOUT|ENOTFOUND/i.test(message);
}

async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, { signal, cache: "no-store", headers: { accept: "application/json" } });
  if (!response.ok) throw new NotificationsRequestError(response.status);
  return (await response.json()) as T;
}

export type NotificationsPage = { data: NotificationItem[]; pagination: Pagination };

export const fetchNotifications = (page: { limit: number; offset: number }, signal?: AbortSignal) =>
  getJson<NotificationsPage>(`/api/notifications?limit=${page.limit}&offset=${page.offset}`, signal);

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/** The bell's number. Section 8: a 429 counts as 0 and is not retried; transient failures are, twice. */
export async function fetchUnreadCount(signal?: AbortSignal): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      const body = await getJson<{ data: { unread_count: number } }>("/api/notifications/unread-count", signal);
      return body.data.unread_count;
    } catch (error) {
      if (error instanceof NotificationsRequestError && error.status === 429) return 0;
      if (attempt >= UNREAD_RETRIES || !isTransient(error)) throw error;
      await wait(1000 * 2 ** attempt, signal);
    }
  }
}

const changes = new EventTarget();

/** Calls `listener` whenever this tab marked notifications read, so the bell and the page agree. */
export function onNotificationsChanged(listener: () => void): () => void {
  changes.addEventListener("change", listener);
  return () => changes.removeEventListener("change", listener);
}

/** Marks the given notifications (or all) read; answers how many changed. */
export async function markNotificationsRead(target: { ids: string[] } | { all: true }): Promise<number> {
  const body = "all" in target ? { mark_all: true } : { notification_ids: target.ids };
  const { ok, status, json } = await csrfFetch("/api/notifications/read", {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!ok) throw new NotificationsRequestError(status);
  const { data } = json as { data: { marked_count: number } };
  changes.dispatchEvent(new Event("change"));
  return data.marked_count;
}
