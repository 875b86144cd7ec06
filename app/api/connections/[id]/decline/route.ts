import { NextResponse } from "next/server";
import { requestIdParamsSchema } from "@/lib/connections/schemas";
import { declineRequest } from "@/lib/connections/service";
import { route } from "@/lib/http/route";

/** A receiving partner declines (anyone else: 404); the sender is never told. */
export const POST = route(
  { access: "complete-profile", params: requestIdParamsSchema, paramsMessage: { firstIssue: true } },
  async ({ db, couple, params }) => {
    return NextResponse.json({ data: await declineRequest(db, couple, params.id) });
  },
);
