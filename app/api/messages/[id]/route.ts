import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { messageParamsSchema } from "@/lib/messages/schemas";
import { deleteMessage } from "@/lib/messages/service";

/** Its author erases it (another couple: 403, anyone else: 404). */
export const DELETE = route(
  { access: "complete-profile", params: messageParamsSchema, paramsMessage: { firstIssue: true } },
  async ({ db, couple, params }) => {
    await deleteMessage(db, couple, params.id);
    return NextResponse.json({ data: { id: params.id, deleted: true } });
  },
);
