import { NextResponse } from "next/server";
import { memberOf } from "@/lib/connections/queries";
import { route } from "@/lib/http/route";
import { conversationDetail } from "@/lib/messages/queries";
import { conversationParamsSchema } from "@/lib/messages/schemas";

/** Both couples with their partners, everyone's read position, ended and muted; 404 for anyone but the four. */
export const GET = route(
  { access: "complete-profile", params: conversationParamsSchema, paramsMessage: { firstIssue: true } },
  async ({ db, caller, params }) => {
    const member = await memberOf(db, caller.userId);
    return NextResponse.json({ data: await conversationDetail(db, member, params.id) });
  },
);
