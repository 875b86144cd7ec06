import { NextResponse } from "next/server";
import { forumIdParamsSchema } from "@/lib/forum/schemas";
import { route } from "@/lib/http/route";
import { SAFETY_REACTIONS } from "@/lib/registry/safety";
import { blockCouple, unblockCouple } from "@/lib/safety/blocking";
import { BLOCKS_PER_USER } from "@/lib/safety/rules";

/** Blocks the couple for both partners, both ways (idempotent). */
export const PUT = route(
  { access: "complete-profile", params: forumIdParamsSchema, paramsMessage: { firstIssue: true }, limits: [BLOCKS_PER_USER] },
  async ({ db, couple, params }) => {
    await blockCouple(db, couple, params.id, SAFETY_REACTIONS);
    return NextResponse.json({ data: { coupleId: params.id, blocked: true } });
  },
);

/** Lifts the caller's couple's block (idempotent). */
export const DELETE = route(
  { access: "complete-profile", params: forumIdParamsSchema, paramsMessage: { firstIssue: true }, limits: [BLOCKS_PER_USER] },
  async ({ db, couple, params }) => {
    await unblockCouple(db, couple, params.id, SAFETY_REACTIONS);
    return NextResponse.json({ data: { coupleId: params.id, blocked: false } });
  },
);
