import { NextResponse } from "next/server";
import { FORUM_LIMITS, POST_REQUEST_BYTES } from "@/lib/forum/rules";
import { listPostsBySession } from "@/lib/forum/queries";
import { createPostSchema, listPostsQuerySchema } from "@/lib/forum/schemas";
import { createPost } from "@/lib/forum/service";
import { jsonBody, route, searchParams } from "@/lib/http/route";

/**
 * A page of the global or local forum: `{data: [post], pagination: {limit, nextCursor, hasMore}}`,
 * read with the session (a global list in the session's own statement).
 */
export const GET = route(
  { access: "complete-profile", input: searchParams(listPostsQuerySchema, { firstIssue: true }), session: listPostsBySession },
  async ({ live }) => NextResponse.json(live),
);

/** A new post by the caller for their couple: 201 `{data: post}`. */
export const POST = route(
  {
    access: "complete-profile",
    limits: [FORUM_LIMITS.postsPerUser],
    input: jsonBody(createPostSchema, { firstIssue: true }, { maxBytes: POST_REQUEST_BYTES }),
  },
  async ({ db, couple, input }) => {
    return NextResponse.json({ data: await createPost(db, couple, input) }, { status: 201 });
  },
);
