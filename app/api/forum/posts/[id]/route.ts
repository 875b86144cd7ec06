import { NextResponse } from "next/server";
import { FORUM_LIMITS, POST_REQUEST_BYTES } from "@/lib/forum/rules";
import { readThread } from "@/lib/forum/queries";
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
  async ({ db, couple, params, input }) => {
    return NextResponse.json({ data: await readThread(db, couple, params.id, input) });
  },
);

/** Its author edits it (403 for anyone else). */
export const PATCH = route(
  {
    access: "complete-profile",
    limits: [FORUM_LIMITS.editsPerUser],
    params: forumIdParamsSchema,
    paramsMessage: { firstIssue: true },
    input: jsonBody(patchPostSchema, { firstIssue: true }, { maxBytes: POST_REQUEST_BYTES }),
  },
  async ({ db, couple, params, input }) => {
    return NextResponse.json({ data: await patchPost(db, couple, params.id, input) });
  },
);

/** Its author deletes it; with replies, the thread stays under "This post was deleted". */
export const DELETE = route(
  { access: "complete-profile", params: forumIdParamsSchema, paramsMessage: { firstIssue: true } },
  async ({ db, couple, params }) => {
    await deletePost(db, couple, params.id);
    return NextResponse.json({ data: { id: params.id, deleted: true } });
  },
);
