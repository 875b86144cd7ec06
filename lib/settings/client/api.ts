/** The browser's calls to the settings API that carry no photos, through the transport (lib/transport/client.ts); forms with photos go through ./save.ts. */
import "client-only";
import { api } from "@/lib/transport/client";
import type { NotificationKind, NotificationPreferences } from "@/lib/notifications/rules";
import type { KeysetPage } from "@/lib/pagination/page";
import type { BlockedCouple } from "@/lib/safety/block-list";

/** Every type's channels as saved now. */
export const loadNotificationPreferences = () =>
  api<{ data: NotificationPreferences }>("/api/settings/notifications").then((body) => body.data);

/** Saves the types named (the others stay as they are); answers every type's channels as saved. */
export const saveNotificationPreferences = (preferences: Partial<NotificationPreferences>) =>
  api<{ data: NotificationPreferences }>("/api/settings/notifications", { method: "PUT", body: { preferences } }).then((body) => body.data);

export async function saveBothApprove(bothApprove: boolean): Promise<void> {
  await api("/api/settings/connections", { method: "PUT", body: { bothApprove } });
}

/** The page of the couples this couple blocked after `cursor`. */
export function blockedCouplesPage(cursor: string): Promise<KeysetPage<BlockedCouple>> {
  return api(`/api/blocks?cursor=${encodeURIComponent(cursor)}`);
}

/** An e-mail's unsubscribe link: a public call, the link's token is the authority. Answers the type it turned off. */
export const unsubscribe = (token: string) =>
  api<{ data: { type: NotificationKind } }>(`/api/notifications/unsubscribe?token=${encodeURIComponent(token)}`, {
    method: "POST",
    public: true,
  }).then((body) => body.data.type);
