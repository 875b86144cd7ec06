import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { editMessage } from "@/lib/messages/changes";
import { editMessageSchema, messageParamsSchema } from "@/lib/messages/schemas";
import { deleteMessage } from "@/lib/messages/service";

/** Its author erases it (another couple: 403, anyone else: 404). */
export const DELETE = route(
  { access: "complete-profile", params: messageParamsSchema, paramsMessage: { firstIssue: true } },
  async ({ db, couple, params }) => {
    await deleteMessage(db, couple, params.id);
    return NextResponse.json({ data: { id: params.id, deleted: true } });
  },
);

/** Its author changes its words within 15 minutes: `{data: message}` ('edited' from then on). */
export const PATCH = route(
  {
    access: "complete-profile",
    params: messageParamsSchema,
    paramsMessage: { firstIssue: true },
    input: jsonBody(editMessageSchema, { firstIssue: true }),
  },
  async ({ db, couple, params, input }) => {
    return NextResponse.json({ data: await editMessage(db, couple, params.id, input.body) });
  },
);
