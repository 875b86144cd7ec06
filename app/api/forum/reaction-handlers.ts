import "server-only";
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import type { ReactionTarget } from "@/lib/forum/rules";
import { reactionParamsSchema } from "@/lib/forum/schemas";
import { setReaction } from "@/lib/forum/service";

/**
 * The PUT (add) and DELETE (remove) handlers of `/api/forum/{posts|replies}/{id}/reactions/{kind}`,
 * both idempotent, answering the target's counts and the caller's own kinds. One adapter for the
 * two routes, which differ only in what the reaction is on.
 */
export function reactionHandlers(target: ReactionTarget) {
  const handler = (on: boolean) =>
    route(
      { access: "complete-profile", params: reactionParamsSchema, paramsMessage: { firstIssue: true } },
      async ({ db, couple, params }) => {
        return NextResponse.json({ data: await setReaction(db, couple, target, params.id, params.kind, on) });
      },
    );
  return { PUT: handler(true), DELETE: handler(false) };
}
