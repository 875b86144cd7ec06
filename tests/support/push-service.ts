import { webPushTransport } from "@/lib/notifications/push/transport";
import { startPushStandIn } from "./push-stand-in";

/**
 * The push service stand-in (./push-stand-in.ts) with the sender's transport as in production
 * (web-push over HTTPS), trusting the stand-in's certificate: what the integration tests hand the sender.
 */
export async function startPushService(vapidPublicKey: string) {
  const standIn = await startPushStandIn(vapidPublicKey);
  return { ...standIn, transport: webPushTransport(standIn.agent) };
}
