import { NextResponse } from "next/server";
import { requestIdParamsSchema } from "@/lib/connections/schemas";
import { acceptRequest } from "@/lib/connections/service";
import { route } from "@/lib/http/route";

/** A receiving partner accepts (anyone else: 404): the conversation opens, or waits for the other partner. */
export const POST = route(
  { access: "complete-profile", params: requestIdParamsSchema, paramsMessage: { firstIssue: true } },
  async ({ db, couple, params }) => {
    return NextResponse.json({ data: await acceptRequest(db, couple, params.id) });
  },
);
