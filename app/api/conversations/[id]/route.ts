import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { conversationDetail } from "@/lib/messages/queries";
import { conversationParamsSchema } from "@/lib/messages/schemas";

/** Both couples with their partners, everyone's read position, ended and muted; 404 for anyone but the four. */
export const GET = route(
  { access: "complete-profile", params: conversationParamsSchema, paramsMessage: { firstIssue: true } },
  async ({ db, couple, params }) => {
    return NextResponse.json({ data: await conversationDetail(db, couple, params.id) });
  },
);
