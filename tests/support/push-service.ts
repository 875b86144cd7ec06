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

/** A hello's push waiting for a subscription, as the outbox holds it (due when written). */
export const helloPush = (subscriptionId: string) => ({
  subscriptionId,
  type: "connection_request",
  title: "New request",
  body: "Ana & Rui said hello",
  url: "/messages?tab=requests",
  urgency: "normal" as const,
});
