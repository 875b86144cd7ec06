import type { Metadata } from "next";
import { SecuritySettings } from "@/components/settings/SecuritySettings";
import { accountOverview } from "@/lib/account/queries";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { withDb } from "@/lib/with-db";
import styles from "@/components/settings/settings.module.css";

export const metadata: Metadata = { title: "Security" };

export default async function SecurityPage() {
  const { userId } = await requireCompleteProfile();
  const { email } = await withDb((db) => accountOverview(db, userId));
  return (
    <main id="main" className={styles.narrow}>
      <h1>Security</h1>
      <SecuritySettings email={email} />
    </main>
  );
}
