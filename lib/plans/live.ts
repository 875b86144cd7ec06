import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { conversations, plans } from "@/db/schema";
import type { LiveFeature, LiveKind } from "@/lib/live/kinds";
import { publishLive } from "@/lib/live/publish";
import { mayReceive } from "@/lib/messages/access";
import { planColumns, planItems } from "./queries";

/**
 * Plans' live kind (registered in lib/registry/live.ts): a plan proposed, changed, answered,
 * cancelled or confirmed as where the couples met, sent as the card shows it now, only while the
 * person may receive its conversation (lib/messages/access.ts). Subject: the plan.
 */
export const PLAN: LiveKind = {
  name: "plan",
  event: "plan",
  async render({ db, userId }, rows) {
    const ids = [...new Set(rows.flatMap((row) => (row.subjectId ? [row.subjectId] : [])))];
    if (ids.length === 0) return rows.map(() => undefined);
    const found = await db
      .select(planColumns)
      .from(plans)
      .innerJoin(conversations, eq(conversations.id, plans.conversationId))
      .where(and(inArray(plans.id, ids), mayReceive(userId)));
    const shown = new Map((await planItems(db, found, userId)).map((plan) => [plan.id, plan]));
    return rows.map((row) => shown.get(row.subjectId ?? ""));
  },
};

export const plansLive: LiveFeature = { kinds: [PLAN] };

/** Each of the people given (the four of the plan's conversation) gets the plan's card as it is now. */
export async function tellEveryone(db: Db, planId: string, people: readonly { userId: string }[]): Promise<void> {
  await publishLive(
    db,
    people.map(({ userId }) => ({ userId, kind: PLAN, subjectId: planId })),
  );
}
