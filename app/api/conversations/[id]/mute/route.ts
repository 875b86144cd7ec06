import { NextResponse } from "next/server";
import { memberOf } from "@/lib/connections/queries";
import { route } from "@/lib/http/route";
import { conversationParamsSchema } from "@/lib/messages/schemas";
import { setMuted } from "@/lib/messages/service";

const declaration = { access: "complete-profile", params: conversationParamsSchema, paramsMessage: { firstIssue: true } } as const;

/** 'Mute' for the caller: `{data: {muted: true}}`. */
export const POST = route(declaration, async ({ db, caller, params }) => {
  const member = await memberOf(db, caller.userId);
  return NextResponse.json({ data: await setMuted(db, member, params.id, true) });
});

/** Undo: `{data: {muted: false}}`. */
export const DELETE = route(declaration, async ({ db, caller, params }) => {
  const member = await memberOf(db, caller.userId);
  return NextResponse.json({ data: await setMuted(db, member, params.id, false) });
});
