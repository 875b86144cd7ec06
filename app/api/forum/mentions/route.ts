import { NextResponse } from "next/server";
import { mentionSuggestions } from "@/lib/forum/queries";
import { mentionSearchSchema } from "@/lib/forum/schemas";
import { route, searchParams } from "@/lib/http/route";

/** The composer's '@' suggestions: couples the caller may mention whose name contains `q`. */
export const GET = route(
  { access: "complete-profile", input: searchParams(mentionSearchSchema, { firstIssue: true }) },
  async ({ db, couple, input }) => {
    return NextResponse.json({ data: await mentionSuggestions(db, couple, input.q) });
  },
);
