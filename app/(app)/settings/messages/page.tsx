import type { Metadata } from "next";
import { ConnectionSettings } from "@/components/settings/ConnectionSettings";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { memberOf } from "@/lib/connections/queries";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Messages" };

export default async function MessagesSettingsPage() {
  const { userId } = await requireCompleteProfile();
  const member = await withDb((db) => memberOf(db, userId));
  return (
    <main id="main">
      <h1>Messages</h1>
      <ConnectionSettings initial={member.bothApprove} />
    </main>
  );
}
