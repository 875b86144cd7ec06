import { NextResponse } from "next/server";
import { route, searchParams } from "@/lib/http/route";
import { inbox, inboxBySession } from "@/lib/messages/inbox";
import { inboxQuerySchema } from "@/lib/messages/schemas";

/** The inbox: the caller's couple's conversations, latest activity first, keyset pages (`cursor`); read with the session. */
export const GET = route(
  { access: "complete-profile", input: searchParams(inboxQuerySchema, { firstIssue: true }), session: inboxBySession },
  async ({ db, couple, input, live }) => NextResponse.json(live ?? (await inbox(db, couple, input.cursor))),
);
