import type { Metadata } from "next";
import { LocationSettings } from "@/components/settings/LocationSettings";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { loadLocationSettings } from "@/lib/settings/queries";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Location and privacy" };

export default async function LocationSettingsPage() {
  const { userId } = await requireCompleteProfile();
  const settings = await withDb((db) => loadLocationSettings(db, userId));
  return (
    <main id="main">
      <h1>Location and privacy</h1>
      <LocationSettings initial={settings} />
    </main>
  );
}
