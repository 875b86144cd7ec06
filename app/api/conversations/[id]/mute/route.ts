import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { conversationParamsSchema } from "@/lib/messages/schemas";
import { setMuted } from "@/lib/messages/service";
import { MESSAGE_LIMITS } from "@/lib/messages/rules";

const declaration = {
  access: "complete-profile",
  limits: [MESSAGE_LIMITS.mutesPerHour],
  params: conversationParamsSchema,
  paramsMessage: { firstIssue: true },
} as const;

/** 'Mute' for the caller: `{data: {muted: true}}`. */
export const POST = route(declaration, async ({ db, couple, params }) => {
  return NextResponse.json({ data: await setMuted(db, couple, params.id, true) });
});

/** Undo: `{data: {muted: false}}`. */
export const DELETE = route(declaration, async ({ db, couple, params }) => {
  return NextResponse.json({ data: await setMuted(db, couple, params.id, false) });
});
