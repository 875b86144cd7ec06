import { NextResponse } from "next/server";
import { REPLY_REQUEST_BYTES } from "@/lib/forum/rules";
import { forumActor } from "@/lib/forum/queries";
import { forumIdParamsSchema, patchReplySchema } from "@/lib/forum/schemas";
import { deleteReply, patchReply } from "@/lib/forum/service";
import { jsonBody, route } from "@/lib/http/route";

/** Its author edits it (403 for anyone else). */
export const PATCH = route(
  {
    access: "complete-profile",
    params: forumIdParamsSchema,
    paramsMessage: { firstIssue: true },
    input: jsonBody(patchReplySchema, { firstIssue: true }, { maxBytes: REPLY_REQUEST_BYTES }),
  },
  async ({ db, caller, params, input }) => {
    const actor = await forumActor(db, caller.userId);
    return NextResponse.json({ data: await patchReply(db, actor, params.id, input) });
  },
);

/** Its author deletes it; the thread keeps its place. */
export const DELETE = route(
  { access: "complete-profile", params: forumIdParamsSchema, paramsMessage: { firstIssue: true } },
  async ({ db, caller, params }) => {
    const actor = await forumActor(db, caller.userId);
    await deleteReply(db, actor, params.id);
    return NextResponse.json({ data: { id: params.id, deleted: true } });
  },
);
