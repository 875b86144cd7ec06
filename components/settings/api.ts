import "client-only";
import { csrfFetch } from "@/lib/http/csrf-client";

/** The message of a failed settings call: the server's, else a generic one. */
export function errorMessage(json: unknown, fallback = "Something went wrong. Please try again."): string {
  const error = (json as { error?: { message?: unknown } } | null)?.error;
  return typeof error?.message === "string" && error.message ? error.message : fallback;
}

/** A mutating JSON call with the session's CSRF token: `{ok, json}`; a network failure is a failed answer. */
export async function send(
  method: "POST" | "PUT" | "DELETE",
  url: string,
  body?: unknown,
): Promise<{ ok: boolean; status: number; json: unknown }> {
  try {
    return await csrfFetch(url, {
      method,
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    return {
      ok: false,
      status: 0,
      json: { error: { message: "We could not reach the server. Please check your connection and try again." } },
    };
  }
}
