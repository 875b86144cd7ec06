import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { MESSAGE_LIMITS } from "@/lib/messages/rules";
import { conversationParamsSchema } from "@/lib/messages/schemas";
import { announceTyping } from "@/lib/messages/service";

/** '... is typing' to the conversation's other members, never stored: `{data: {typing: true}}`. */
export const POST = route(
  {
    access: "complete-profile",
    params: conversationParamsSchema,
    paramsMessage: { firstIssue: true },
    limits: [MESSAGE_LIMITS.typingPerMinute],
  },
  async ({ db, couple, params }) => {
    await announceTyping(db, couple, params.id);
    return NextResponse.json({ data: { typing: true } });
  },
);
