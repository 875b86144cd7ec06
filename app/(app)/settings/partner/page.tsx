import type { Metadata } from "next";
import { PartnerSettings } from "@/components/settings/PartnerSettings";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { partnerView } from "@/lib/invitations/manage";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Partner" };

export default async function PartnerSettingsPage() {
  const { userId } = await requireCompleteProfile();
  const view = await withDb((db) => partnerView(db, userId));
  return (
    <main id="main">
      <h1>Partner</h1>
      <PartnerSettings initial={view} />
    </main>
  );
}
