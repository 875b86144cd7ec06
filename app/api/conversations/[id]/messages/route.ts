import { NextResponse } from "next/server";
import { MESSAGE_LIMITS } from "@/lib/messages/rules";
import { jsonBody, route, searchParams } from "@/lib/http/route";
import { threadBySession, threadPage } from "@/lib/messages/thread";
import { conversationParamsSchema, sendMessageSchema, threadQuerySchema } from "@/lib/messages/schemas";
import { sendMessage } from "@/lib/messages/service";

const params = { params: conversationParamsSchema, paramsMessage: { firstIssue: true } } as const;

/** A page of the thread, oldest first: the newest, or those `before` a message; read with the session. */
export const GET = route(
  { access: "complete-profile", ...params, input: searchParams(threadQuerySchema, { firstIssue: true }), session: threadBySession },
  async ({ db, couple, params, input, live }) => NextResponse.json(live ?? (await threadPage(db, couple, params.id, input))),
);

/** A message by one of the four: 201 `{data: message}`. */
export const POST = route(
  {
    access: "complete-profile",
    ...params,
    limits: [MESSAGE_LIMITS.perMinute, MESSAGE_LIMITS.perDay],
    input: jsonBody(sendMessageSchema, { firstIssue: true }),
  },
  async ({ db, couple, params, input }) => {
    return NextResponse.json({ data: await sendMessage(db, couple, params.id, input) }, { status: 201 });
  },
);
