import { NextResponse } from "next/server";
import { forumActor, mentionSuggestions } from "@/lib/forum/queries";
import { mentionSearchSchema } from "@/lib/forum/schemas";
import { route, searchParams } from "@/lib/http/route";

/** The composer's '@' suggestions: couples the caller may mention whose name contains `q`. */
export const GET = route(
  { access: "complete-profile", input: searchParams(mentionSearchSchema, { firstIssue: true }) },
  async ({ db, caller, input }) => {
    const actor = await forumActor(db, caller.userId);
    return NextResponse.json({ data: await mentionSuggestions(db, actor, input.q) });
  },
);
