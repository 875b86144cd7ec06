/**
 * The browser's calls to the notifications API, shared by the bell and the notifications page.
 * Reads go with the session cookie alone; marking read also sends the session's CSRF token.
 */
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

let csrfToken: Promise<string> | null = null;

/** The session's CSRF token, fetched once and kept; a failed fetch is tried again next time. */
function csrf(refresh = false): Promise<string> {
  if (refresh || !csrfToken) {
    const pending = getJson<{ csrfToken?: string | null; token?: string | null }>("/api/csrf-token").then((body) => {
      const token = body.csrfToken ?? body.token;
      if (!token) throw new NotificationsRequestError(401);
      return token;
    });
    pending.catch(() => {
      if (csrfToken === pending) csrfToken = null;
    });
    csrfToken = pending;
  }
  return csrfToken;
}

async function patchRead(body: unknown, token: string): Promise<Response> {
  return fetch("/api/notifications/read", {
    method: "PATCH",
    headers: { "content-type": "application/json", "x-csrf-token": token },
    body: JSON.stringify(body),
  });
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
  let response = await patchRead(body, await csrf());
  if (response.status === 403) {
    // The token belongs to the session: after signing in again it is stale. Fetch a new one once.
    response = await patchRead(body, await csrf(true));
  }
  if (!response.ok) throw new NotificationsRequestError(response.status);
  const { data } = (await response.json()) as { data: { marked_count: number } };
  changes.dispatchEvent(new Event("change"));
  return data.marked_count;
}
