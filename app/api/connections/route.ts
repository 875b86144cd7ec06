import { NextResponse } from "next/server";
import { listRequests, memberOf } from "@/lib/connections/queries";
import { senderFacts } from "@/lib/connections/sender-facts";
import { listRequestsSchema, sendRequestSchema } from "@/lib/connections/schemas";
import { sendRequest } from "@/lib/connections/service";
import { jsonBody, route, searchParams } from "@/lib/http/route";

/** 'Say hello': 201 `{data: {id, status: "pending", couple, note, createdAt}}`. */
export const POST = route(
  { access: "complete-profile", input: jsonBody(sendRequestSchema, { firstIssue: true }) },
  async ({ db, caller, input }) => {
    const member = await memberOf(db, caller.userId);
    return NextResponse.json({ data: await sendRequest(db, member, input) }, { status: 201 });
  },
);

/** `?box=incoming` (the default): open requests to the caller's couple; `outgoing`: the couple's own. Each couple with its distance band and interests in common. */
export const GET = route(
  { access: "complete-profile", input: searchParams(listRequestsSchema, { firstIssue: true }) },
  async ({ db, caller, input }) => {
    const member = await memberOf(db, caller.userId);
    const requests = await listRequests(db, member, input.box);
    // The inbox shows a sender's distance band and interests in common beside their note.
    const facts = await senderFacts(
      db,
      caller.userId,
      requests.map((request) => request.couple.id),
    );
    return NextResponse.json({
      data: requests.map((request) => ({ ...request, couple: { ...request.couple, ...facts.get(request.couple.id) } })),
    });
  },
);
