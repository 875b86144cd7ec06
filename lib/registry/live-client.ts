/**
 * The browser's live features: how each stream event is applied, one line per feature (the
 * server's kinds: lib/registry/live.ts, a separate list so no database code reaches the bundle).
 */
import "client-only";
import { eventApplier, streamEventNames, unnumberedEventNames, useStream } from "@/lib/live/client/stream";
import { messagesLiveClient } from "@/lib/messages/client/live";
import { typingLiveClient } from "@/lib/messages/client/typing";
import { notificationsLiveClient } from "@/lib/notifications/live-client";
import { plansLiveClient } from "@/lib/plans/client/live";

const LIVE_CLIENT_FEATURES = [notificationsLiveClient, messagesLiveClient, plansLiveClient, typingLiveClient];

/** Every event name the stream may send. */
export const STREAM_EVENTS = streamEventNames(LIVE_CLIENT_FEATURES);

/** The event names sent without an id (ephemeral kinds): a browser gives them the previous event's id. */
export const UNNUMBERED_EVENTS = unnumberedEventNames(LIVE_CLIENT_FEATURES);

/** What each event changes on screen. */
export const applyEvent = eventApplier(LIVE_CLIENT_FEATURES);

/** Keeps the browser's one live stream open (one tab holds it for all) while the calling component is shown. */
export const useLiveStream = () => useStream(LIVE_CLIENT_FEATURES);
