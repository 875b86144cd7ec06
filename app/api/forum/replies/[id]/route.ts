import { NextResponse } from "next/server";
import { FORUM_LIMITS, REPLY_REQUEST_BYTES } from "@/lib/forum/rules";
import { forumIdParamsSchema, patchReplySchema } from "@/lib/forum/schemas";
import { deleteReply, patchReply } from "@/lib/forum/service";
import { jsonBody, route } from "@/lib/http/route";

/** Its author edits it (403 for anyone else). */
export const PATCH = route(
  {
    access: "complete-profile",
    limits: [FORUM_LIMITS.editsPerUser],
    params: forumIdParamsSchema,
    paramsMessage: { firstIssue: true },
    input: jsonBody(patchReplySchema, { firstIssue: true }, { maxBytes: REPLY_REQUEST_BYTES }),
  },
  async ({ db, couple, params, input }) => {
    return NextResponse.json({ data: await patchReply(db, couple, params.id, input) });
  },
);

/** Its author deletes it; the thread keeps its place. */
export const DELETE = route(
  { access: "complete-profile", params: forumIdParamsSchema, paramsMessage: { firstIssue: true } },
  async ({ db, couple, params }) => {
    await deleteReply(db, couple, params.id);
    return NextResponse.json({ data: { id: params.id, deleted: true } });
  },
);
