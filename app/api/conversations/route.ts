import { NextResponse } from "next/server";
import { memberOf } from "@/lib/connections/queries";
import { route, searchParams } from "@/lib/http/route";
import { inbox } from "@/lib/messages/queries";
import { inboxQuerySchema } from "@/lib/messages/schemas";

/** The inbox: the caller's couple's conversations, latest activity first, keyset pages (`cursor`). */
export const GET = route(
  { access: "complete-profile", input: searchParams(inboxQuerySchema, { firstIssue: true }) },
  async ({ db, caller, input }) => {
    const member = await memberOf(db, caller.userId);
    return NextResponse.json(await inbox(db, member, input.cursor));
  },
);
