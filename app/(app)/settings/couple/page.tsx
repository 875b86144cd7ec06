import type { Metadata } from "next";
import { CoupleSettings } from "@/components/settings/CoupleSettings";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { loadCoupleSettings } from "@/lib/settings/queries";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Couple profile" };

export default async function CoupleSettingsPage() {
  const { userId } = await requireCompleteProfile();
  const couple = await withDb((db) => loadCoupleSettings(db, userId));
  return (
    <main id="main">
      <h1>Couple profile</h1>
      <CoupleSettings initial={couple} />
    </main>
  );
}
