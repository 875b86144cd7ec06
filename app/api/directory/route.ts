import { NextResponse } from "next/server";
import { listDirectory } from "@/lib/directory/queries";
import { directoryQuerySchema } from "@/lib/directory/schemas";
import { route, searchParams } from "@/lib/http/route";

/** A page of the couple directory: `{data: [card], pagination: {limit, nextCursor, hasMore}}`; an unknown filter value is a 400. */
export const GET = route(
  { access: "complete-profile", input: searchParams(directoryQuerySchema, { firstIssue: true }) },
  async ({ db, caller, input }) => {
    return NextResponse.json(await listDirectory(db, caller.userId, input), { headers: { "Cache-Control": "private, no-store" } });
  },
);
