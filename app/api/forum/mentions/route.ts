import { NextResponse } from "next/server";
import { searchMentionable, mentionSearchSchema } from "@/lib/forum/mentions";
import { route, searchParams } from "@/lib/http/route";

/** The composer's `@` suggestions: couples the caller may mention, by name. */
export const GET = route({ access: "complete-profile", input: searchParams(mentionSearchSchema, { firstIssue: true }) }, async ({ db, caller, input }) => {
  const data = await searchMentionable(db, caller.userId, input.q);
  return NextResponse.json({ data });
});
