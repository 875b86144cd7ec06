import { NextResponse } from "next/server";
import { route, searchParams } from "@/lib/http/route";
import { inbox } from "@/lib/messages/queries";
import { inboxQuerySchema } from "@/lib/messages/schemas";

/** The inbox: the caller's couple's conversations, latest activity first, keyset pages (`cursor`). */
export const GET = route(
  { access: "complete-profile", input: searchParams(inboxQuerySchema, { firstIssue: true }) },
  async ({ db, couple, input }) => {
    return NextResponse.json(await inbox(db, couple, input.cursor));
  },
);
