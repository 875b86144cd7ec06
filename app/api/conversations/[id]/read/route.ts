import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { conversationParamsSchema, readSchema } from "@/lib/messages/schemas";
import { markRead } from "@/lib/messages/service";
import { MESSAGE_LIMITS } from "@/lib/messages/rules";

/** The caller has read up to `upTo` (never moving back): `{data: {unreadCount}}`. */
export const POST = route(
  {
    access: "complete-profile",
    limits: [MESSAGE_LIMITS.readsPerMinute],
    params: conversationParamsSchema,
    paramsMessage: { firstIssue: true },
    input: jsonBody(readSchema, { firstIssue: true }),
  },
  async ({ db, couple, params, input }) => {
    return NextResponse.json({ data: await markRead(db, couple, params.id, input.upTo) });
  },
);
