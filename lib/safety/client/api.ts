/** The browser's calls to the moderation API, through the transport (lib/transport/client.ts). */
import "client-only";
import { api } from "@/lib/transport/client";
import type { KeysetPage } from "@/lib/pagination/page";
import type { OpenReport } from "@/lib/forum/reports";
import type { OpenAppeal } from "../appeals";
import type { LogRow } from "../moderation-log";
import type { HeldCouple } from "../spam";

/** A page of the moderation log after `cursor`, with the page's filters (`?moderator=&couple=&action=`). */
export function moderationLogPage(filters: string, cursor: string): Promise<KeysetPage<LogRow>> {
  const query = new URLSearchParams(filters);
  query.set("cursor", cursor);
  return api(`/api/moderation/log?${query}`);
}

/** The page of the moderation queue after `cursor` (one row per reported target). */
export function moderationQueuePage(cursor: string): Promise<KeysetPage<OpenReport>> {
  return api(`/api/moderation/reports?cursor=${encodeURIComponent(cursor)}`);
}

/** The page of the open appeals after `cursor`. */
export function openAppealsPage(cursor: string): Promise<KeysetPage<OpenAppeal>> {
  return api(`/api/moderation/appeals?cursor=${encodeURIComponent(cursor)}`);
}

/** The page of the couples with held hellos after `cursor` (one row per sending couple). */
export function heldCouplesPage(cursor: string): Promise<KeysetPage<HeldCouple>> {
  return api(`/api/moderation/held?cursor=${encodeURIComponent(cursor)}`);
}

/** A suspended couple's partner appeals, signed out (`POST /api/appeals/suspended`). */
export async function appealSuspension(values: { email: string; password: string; body: string }): Promise<void> {
  await api("/api/appeals/suspended", { method: "POST", body: values, public: true });
}

/** A partner appeals an action on their couple (`POST /api/appeals`). */
export async function appealAction(sanctionId: string, body: string): Promise<void> {
  await api("/api/appeals", { method: "POST", body: { sanctionId, body } });
}
