import { NextResponse } from "next/server";
import { mentionSuggestions } from "@/lib/forum/queries";
import { FORUM_LIMITS } from "@/lib/forum/rules";
import { mentionSearchSchema } from "@/lib/forum/schemas";
import { route, searchParams } from "@/lib/http/route";
import { spendLimits } from "@/lib/rate-limit";

/** The composer's '@' suggestions: couples the caller may mention whose name contains `q`. */
export const GET = route(
  {
    access: "complete-profile",
    limits: [FORUM_LIMITS.mentionSearchesPerUser],
    input: searchParams(mentionSearchSchema, { firstIssue: true }),
  },
  async ({ db, couple, input }) => {
    // Each search reads names across the network: counted per person, so a loop of prefixes cannot list every couple.
    await spendLimits(db, [[FORUM_LIMITS.mentionSearchesPerUser, couple.userId]]);
    return NextResponse.json({ data: await mentionSuggestions(db, couple, input.q) });
  },
);
