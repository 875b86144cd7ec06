/** The browser's calls to the account-security API (password, e-mail, sessions), through the transport (lib/transport/client.ts). */
import "client-only";
import { api } from "@/lib/transport/client";
import type { SessionSummary } from "../account-security";

export type { SessionSummary } from "../account-security";

/** Whether this browser holds a live session: the token call answers 200 either way, with a token only then. */
export const hasBrowserSession = (signal?: AbortSignal) =>
  api<{ csrfToken: string | null }>("/api/csrf-token", { signal, public: true }).then((body) => Boolean(body?.csrfToken));

export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  await api("/api/auth/change-password", { method: "POST", body: { currentPassword, newPassword } });
}

/** Sends the confirmation link to the new address; the e-mail changes when it is opened. */
export async function requestEmailChange(password: string, newEmail: string): Promise<void> {
  await api("/api/auth/change-email", { method: "POST", body: { password, newEmail } });
}

/** The new address's link: answers the address now in use. */
export const confirmEmailChange = (token: string) =>
  api<{ data: { email: string } }>("/api/auth/confirm-email", { method: "POST", body: { token } }).then((body) => body.data.email);

export const fetchSessions = () => api<{ data: SessionSummary[] }>("/api/auth/sessions").then((body) => body.data);

/** Signs out one session, or (null) every session but this one. */
export async function endSession(id: string | null): Promise<void> {
  await api(id ? `/api/auth/sessions/${encodeURIComponent(id)}` : "/api/auth/sessions", { method: "DELETE" });
}
