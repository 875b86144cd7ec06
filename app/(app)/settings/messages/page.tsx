import type { Metadata } from "next";
import { ConnectionSettings } from "@/components/settings/ConnectionSettings";
import { requireCompleteProfile } from "@/lib/auth/current-session";

export const metadata: Metadata = { title: "Messages" };

export default async function MessagesSettingsPage() {
  const { couple } = await requireCompleteProfile();
  return (
    <main id="main">
      <h1>Messages</h1>
      <ConnectionSettings initial={couple.bothApprove} />
    </main>
  );
}
