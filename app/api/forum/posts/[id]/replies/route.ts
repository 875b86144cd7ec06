import { NextResponse } from "next/server";
import { FORUM_LIMITS, REPLY_REQUEST_BYTES } from "@/lib/forum/rules";
import { createReplySchema, forumIdParamsSchema } from "@/lib/forum/schemas";
import { createReply } from "@/lib/forum/service";
import { jsonBody, route } from "@/lib/http/route";

/** A reply to the post (optionally quoting one of its replies): 201 `{data: reply}`. */
export const POST = route(
  {
    access: "complete-profile",
    params: forumIdParamsSchema,
    paramsMessage: { firstIssue: true },
    limits: [FORUM_LIMITS.repliesPerUser],
    input: jsonBody(createReplySchema, { firstIssue: true }, { maxBytes: REPLY_REQUEST_BYTES }),
  },
  async ({ db, couple, params, input }) => {
    return NextResponse.json({ data: await createReply(db, couple, params.id, input) }, { status: 201 });
  },
);
