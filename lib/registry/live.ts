import "server-only";
import { connectionsLive } from "@/lib/connections/live";
import { liveRegistry } from "@/lib/live/kinds";
import { messagesLive } from "@/lib/messages/live";
import { notificationsLive } from "@/lib/notifications/live";
import { typingLive } from "@/lib/messages/typing";
import { plansLive } from "@/lib/plans/live";

/**
 * The live kinds and counts the stream sends (lib/live/kinds.ts): one line per feature. Server
 * only; the browser's half (how each event is applied) is lib/registry/live-client.ts, since a
 * kind's render reads the database and must not reach the client bundle.
 */
export const LIVE_REGISTRY = liveRegistry([notificationsLive, messagesLive, connectionsLive, plansLive, typingLive]);
