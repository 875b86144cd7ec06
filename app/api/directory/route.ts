import { NextResponse } from "next/server";
import { listDirectory, shownDirectoryCard } from "@/lib/directory/queries";
import { directoryQuerySchema } from "@/lib/directory/schemas";
import { route, searchParams } from "@/lib/http/route";
import { LIMITS, spendLimits } from "@/lib/rate-limit";

/** A page of the couple directory: `{data: [card], pagination: {limit, nextCursor, hasMore}}`; an unknown filter value is a 400. */
export const GET = route(
  { access: "complete-profile", limits: [LIMITS.directoryPerUser], input: searchParams(directoryQuerySchema, { firstIssue: true }) },
  async ({ db, caller, input }) => {
    // Counted here, not in listDirectory: the page's own first render is not a call to limit.
    await spendLimits(db, [[LIMITS.directoryPerUser, caller.userId]]);
    const page = await listDirectory(db, caller.userId, input);
    // 'Load more' appends to the first page's cards: the same shape, no more than a card shows.
    return NextResponse.json({ ...page, data: page.data.map(shownDirectoryCard) }, { headers: { "Cache-Control": "private, no-store" } });
  },
);
