import "server-only";
import { env } from "@/lib/env";

export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

let warned = false;

/**
 * The VAPID keys (RFC 8292) from VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT (`npm run
 * app` makes a pair once in .data/); null when any is missing: push is off, said once in the log
 * and on the notification settings page.
 */
export function vapidKeys(): VapidKeys | null {
  const { VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT } = env();
  if (VAPID_PUBLIC_KEY && VAPID_PRIVATE_KEY && VAPID_SUBJECT)
    return { publicKey: VAPID_PUBLIC_KEY, privateKey: VAPID_PRIVATE_KEY, subject: VAPID_SUBJECT };
  if (!warned) {
    warned = true;
    console.warn("[push] off: VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT are not all set");
  }
  return null;
}
