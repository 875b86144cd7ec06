/** The browser's calls to the events API, through the transport (lib/transport/client.ts). */
import "client-only";
import { api } from "@/lib/transport/client";
import type { EventDraft } from "@/lib/events/service";
import type { KeysetPage } from "@/lib/pagination/page";

/** The page of the couple's drafts after `cursor`. */
export function draftsPage(cursor: string): Promise<KeysetPage<EventDraft>> {
  return api(`/api/events?cursor=${encodeURIComponent(cursor)}`);
}
