import type { ReactNode } from "react";
import { MessagesShell } from "@/components/messages/MessagesShell";
import { requireCompleteProfile } from "@/lib/auth/current-session";

/** The inbox beside whatever is open (a thread, or nothing yet): one screen each on a phone. */
export default async function MessagesLayout({ children }: { children: ReactNode }) {
  const { userId } = await requireCompleteProfile();
  return <MessagesShell viewerId={userId}>{children}</MessagesShell>;
}
