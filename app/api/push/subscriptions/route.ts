import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { PUSH_SETTINGS_LIMIT, SUBSCRIBE_LIMIT } from "@/lib/notifications/push/limits";
import { removeSchema, subscribeSchema } from "@/lib/notifications/push/schemas";
import { listDevices, removeDevice, subscribe } from "@/lib/notifications/push/subscriptions";

/** The caller's devices with notifications on: `{data: [{id, label, addedAt, lastDeliveredAt, thisDevice}]}`. */
export const GET = route({ access: "signed-in" }, async ({ db, caller }) => {
  return NextResponse.json({ data: await listDevices(db, caller.userId, caller.sessionId) }, { headers: { "Cache-Control": "no-store" } });
});

/** Turns notifications on for this device: the browser's PushSubscription (endpoint and keys). */
export const POST = route(
  { access: "signed-in", limits: [SUBSCRIBE_LIMIT], input: jsonBody(subscribeSchema, { firstIssue: true }) },
  async ({ db, caller, input, request }) => {
    const device = await subscribe(
      db,
      { userId: caller.userId, sessionId: caller.sessionId, userAgent: request.headers.get("user-agent") },
      input,
    );
    return NextResponse.json({ data: device }, { status: 201 });
  },
);

/** Removes one device: `{id}` (the settings' 'Remove') or `{endpoint}` (this device turning off). */
export const DELETE = route(
  { access: "signed-in", limits: [PUSH_SETTINGS_LIMIT], input: jsonBody(removeSchema, { firstIssue: true }) },
  async ({ db, caller, input }) => {
    await removeDevice(db, caller.userId, input);
    return new NextResponse(null, { status: 204 });
  },
);
