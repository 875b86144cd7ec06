/** The browser's calls to the moderation API, through the transport (lib/http/client.ts). */
import "client-only";
import { api } from "@/lib/http/client";
import type { KeysetPage } from "@/lib/pagination/page";
import type { LogRow } from "../moderation-log";

/** A page of the moderation log after `cursor`, with the page's filters (`?moderator=&couple=&action=`). */
export function moderationLogPage(filters: string, cursor: string): Promise<KeysetPage<LogRow>> {
  const query = new URLSearchParams(filters);
  query.set("cursor", cursor);
  return api(`/api/moderation/log?${query}`);
}
