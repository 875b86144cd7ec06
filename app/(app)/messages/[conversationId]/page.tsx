import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Thread } from "@/components/messages/Thread";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { canonicalId } from "@/lib/fields";
import { AppError } from "@/lib/errors";
import { THREAD_FIRST_PAINT } from "@/lib/messages/rules";
import type { ThreadValue } from "@/lib/messages/display";
import { openConversationWithPlans } from "@/lib/plans/service";
import type { PlanView } from "@/lib/plans/view";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Conversation" };

/**
 * One conversation between two couples, first painted with its newest messages (THREAD_FIRST_PAINT); only its four
 * partners can read it: anyone else (and any id that is no conversation) gets not found.
 */
export default async function ConversationPage({ params }: { params: Promise<{ conversationId: string }> }) {
  // Conversation ids are UUIDs: anything else is no conversation.
  const conversationId = canonicalId((await params).conversationId);
  if (!conversationId) notFound();
  const { userId, couple } = await requireCompleteProfile();
  let initial: ThreadValue;
  let plans: PlanView[];
  try {
    [initial, plans] = await withDb(async (db) => {
      const { conversation, page, plans } = await openConversationWithPlans(db, couple, conversationId, THREAD_FIRST_PAINT);
      return [{ conversation, messages: page.data, hasMore: page.pagination.hasMore }, plans] as const;
    });
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  return <Thread key={conversationId} conversationId={conversationId} viewerId={userId} initial={initial} initialPlans={plans} />;
}
