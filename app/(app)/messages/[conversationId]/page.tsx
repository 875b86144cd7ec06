import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Thread } from "@/components/messages/Thread";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { isCoupleId } from "@/lib/couples/schemas";

export const metadata: Metadata = { title: "Conversation" };

/** One conversation between two couples; only its four partners can read it (the API answers 404 to anyone else). */
export default async function ConversationPage({ params }: { params: Promise<{ conversationId: string }> }) {
  const { conversationId } = await params;
  // Ids are UUIDs like a couple's: anything else is no conversation.
  if (!isCoupleId(conversationId)) notFound();
  const { userId } = await requireCompleteProfile();
  return <Thread key={conversationId} conversationId={conversationId} viewerId={userId} />;
}
