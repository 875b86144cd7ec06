import { NextResponse } from "next/server";
import { listRequests } from "@/lib/connections/queries";
import { withSenderFacts } from "@/lib/connections/sender-facts";
import { listRequestsSchema, sendRequestSchema } from "@/lib/connections/schemas";
import { sendRequest } from "@/lib/connections/service";
import { jsonBody, route, searchParams } from "@/lib/http/route";

/** 'Say hello': 201 `{data: {id, status: "pending", couple, note, createdAt}}`; held by the spam rule: 202 `{data: {status: "held", message}}`. */
export const POST = route(
  { access: "complete-profile", input: jsonBody(sendRequestSchema, { firstIssue: true }) },
  async ({ db, couple, input }) => {
    const sent = await sendRequest(db, couple, input);
    return NextResponse.json({ data: sent }, { status: sent.status === "held" ? 202 : 201 });
  },
);

/**
 * `?box=incoming` (the default): open requests to the caller's couple, with `total`, how many are
 * open; `outgoing`: the couple's own. Keyset pages (`cursor`), newest first; each couple with its
 * distance band and interests in common.
 */
export const GET = route(
  { access: "complete-profile", input: searchParams(listRequestsSchema, { firstIssue: true }) },
  async ({ db, caller, couple, input }) => {
    // The inbox shows a sender's distance band and interests in common beside their note.
    return NextResponse.json(await withSenderFacts(db, caller.userId, await listRequests(db, couple, input.box, input.cursor)));
  },
);
