import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { reactToMessage } from "@/lib/messages/changes";
import { messageReactionParamsSchema } from "@/lib/messages/schemas";

/**
 * A reaction on a message, one of the forum's five, as on a post: PUT adds, DELETE removes, both
 * idempotent; `{data: message}` with its reactions now.
 */
const handler = (on: boolean) =>
  route(
    { access: "complete-profile", params: messageReactionParamsSchema, paramsMessage: { firstIssue: true } },
    async ({ db, couple, params }) => {
      return NextResponse.json({ data: await reactToMessage(db, couple, params.id, params.kind, on) });
    },
  );

export const PUT = handler(true);
export const DELETE = handler(false);
