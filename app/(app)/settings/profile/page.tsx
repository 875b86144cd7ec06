import type { Metadata } from "next";
import { ProfileSettings } from "@/components/settings/ProfileSettings";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { groupByCategory, INTEREST_ROWS } from "@/lib/interests/catalogue";
import { loadProfileSettings } from "@/lib/settings/queries";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Your profile" };

export default async function ProfileSettingsPage() {
  const { userId } = await requireCompleteProfile();
  const profile = await withDb((db) => loadProfileSettings(db, userId));
  return (
    <main id="main">
      <h1>Your profile</h1>
      <ProfileSettings initial={profile} categories={groupByCategory(INTEREST_ROWS)} />
    </main>
  );
}
