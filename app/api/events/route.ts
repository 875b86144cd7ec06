import { NextResponse } from "next/server";
import { createDraft, listDrafts } from "@/lib/events/service";
import { createEventSchema } from "@/lib/events/schemas";
import { jsonBody, route, searchParams } from "@/lib/http/route";
import { cursorPageSchema } from "@/lib/pagination/schemas";

/** The caller's couple's event drafts, newest first (keyset pages): `{data: [draft], pagination}`. */
export const GET = route({ access: "complete-profile", input: searchParams(cursorPageSchema) }, async ({ db, couple, input }) => {
  return NextResponse.json(await listDrafts(db, couple, input.cursor), { headers: { "Cache-Control": "no-store" } });
});

/** A new paid event draft: 201 `{data: draft}`, or 403 PAID_EVENTS_NOT_ALLOWED without the couple's flag. */
export const POST = route(
  { access: "complete-profile", input: jsonBody(createEventSchema, { firstIssue: true }) },
  async ({ db, couple, input, clientAddress }) => {
    return NextResponse.json({ data: await createDraft(db, couple, input, { clientAddress }) }, { status: 201 });
  },
);
