import { env } from "@/lib/env";
import { canonicalId } from "@/lib/fields";
import { route } from "@/lib/http/route";
import { parseEventId, streamLifetimeMs } from "@/lib/live/rules";
import { liveStream } from "@/lib/live/sse";
import { LIVE_REGISTRY } from "@/lib/registry/live";

/** Whom the page was rendered for, as `?as=` names it: null when not said, "" (nobody) when it is no id. */
const pageUser = (raw: string | null): string | null => (raw === null ? null : (canonicalId(raw.slice(0, 64)) ?? ""));

/**
 * GET /api/stream: the signed-in caller's live events (server-sent events, one stream per browser: its
 * tabs share it, lib/live/client/tabs.ts).
 * The browser's own reconnect sends `Last-Event-ID`; a reconnect made by hand names it as
 * `?lastEventId=` (EventSource cannot set the header). `?as=` names whom the page was rendered for.
 */
export const GET = route({ access: "signed-in" }, async ({ db, caller, request }) =>
  liveStream({
    db,
    userId: caller.userId,
    sessionId: caller.sessionId,
    registry: LIVE_REGISTRY,
    // `?as=`: whom the page was rendered for (lib/live/client/stream.ts); a malformed one is nobody's.
    pageUserId: pageUser(request.nextUrl.searchParams.get("as")),
    resumeFrom: parseEventId(request.headers.get("last-event-id") ?? request.nextUrl.searchParams.get("lastEventId")),
    lifetimeMs: streamLifetimeMs(env().LIVE_STREAM_MAX_S),
    signal: request.signal,
  }),
);
