import type { Metadata } from "next";
import { DataSettings } from "@/components/settings/DataSettings";
import { accountOverview } from "@/lib/account/queries";
import { requireSignedIn } from "@/lib/auth/current-session";
import { withDb } from "@/lib/with-db";
import styles from "@/components/settings/settings.module.css";

export const metadata: Metadata = { title: "Your data" };

/**
 * 'Download my data' and 'Delete my account' before the profile is complete: someone who stops
 * at step 1 has a name, a date of birth and an address stored, and /settings needs a complete
 * profile (spec section 2). The same sections as /settings/data.
 */
export default async function OnboardingDataPage() {
  const { userId } = await requireSignedIn();
  const { couple } = await withDb((db) => accountOverview(db, userId));
  return (
    <main id="main" className={styles.narrow}>
      <h1>Your data</h1>
      <DataSettings couple={couple} />
    </main>
  );
}
