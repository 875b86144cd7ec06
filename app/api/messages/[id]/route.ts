import { NextResponse } from "next/server";
import { memberOf } from "@/lib/connections/queries";
import { route } from "@/lib/http/route";
import { messageParamsSchema } from "@/lib/messages/schemas";
import { deleteMessage } from "@/lib/messages/service";

/** Its author erases it (another member: 403, anyone else: 404). */
export const DELETE = route(
  { access: "complete-profile", params: messageParamsSchema, paramsMessage: { firstIssue: true } },
  async ({ db, caller, params }) => {
    const member = await memberOf(db, caller.userId);
    await deleteMessage(db, member, params.id);
    return NextResponse.json({ data: { id: params.id, deleted: true } });
  },
);
