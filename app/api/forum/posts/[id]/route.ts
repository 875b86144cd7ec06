import { NextResponse } from "next/server";
import { POST_REQUEST_BYTES } from "@/lib/forum/rules";
import { forumActor, readThread } from "@/lib/forum/queries";
import { forumIdParamsSchema, patchPostSchema, threadQuerySchema } from "@/lib/forum/schemas";
import { deletePost, patchPost } from "@/lib/forum/service";
import { jsonBody, route, searchParams } from "@/lib/http/route";

/** The post and a page of its replies, oldest first: `{data: {post, replies, pagination}}`; 404 when the caller may not see it. */
export const GET = route(
  {
    access: "complete-profile",
    params: forumIdParamsSchema,
    paramsMessage: { firstIssue: true },
    input: searchParams(threadQuerySchema, { firstIssue: true }),
  },
  async ({ db, caller, params, input }) => {
    const actor = await forumActor(db, caller.userId);
    return NextResponse.json({ data: await readThread(db, actor, params.id, input) });
  },
);

/** Its author edits it (403 for anyone else). */
export const PATCH = route(
  {
    access: "complete-profile",
    params: forumIdParamsSchema,
    paramsMessage: { firstIssue: true },
    input: jsonBody(patchPostSchema, { firstIssue: true }, { maxBytes: POST_REQUEST_BYTES }),
  },
  async ({ db, caller, params, input }) => {
    const actor = await forumActor(db, caller.userId);
    return NextResponse.json({ data: await patchPost(db, actor, params.id, input) });
  },
);

/** Its author deletes it; with replies, the thread stays under "This post was deleted". */
export const DELETE = route(
  { access: "complete-profile", params: forumIdParamsSchema, paramsMessage: { firstIssue: true } },
  async ({ db, caller, params }) => {
    const actor = await forumActor(db, caller.userId);
    await deletePost(db, actor, params.id);
    return NextResponse.json({ data: { id: params.id, deleted: true } });
  },
);
