import "server-only";
import type { Db } from "@/db/client";
import { awaitingAnswerCount } from "@/lib/connections/queries";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { unreadTotal } from "./queries";

/**
 * The navigation's 'Messages' number: unread messages over all conversations plus the hellos
 * waiting for this partner's answer, since both wait for them in Messages.
 */
export async function messagesBadgeCount(db: Db, member: Pick<ActingCouple, "userId" | "coupleId">): Promise<number> {
  const [unread, awaiting] = await Promise.all([unreadTotal(db, member), awaitingAnswerCount(db, member)]);
  return unread + awaiting;
}
