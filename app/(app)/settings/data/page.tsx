import type { Metadata } from "next";
import { DataSettings } from "@/components/settings/DataSettings";
import { accountOverview } from "@/lib/account/queries";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { withDb } from "@/lib/with-db";
import styles from "@/components/settings/settings.module.css";

export const metadata: Metadata = { title: "Your data" };

export default async function DataPage() {
  const { userId } = await requireCompleteProfile();
  const { couple } = await withDb((db) => accountOverview(db, userId));
  return (
    <main id="main" className={styles.narrow}>
      <h1>Your data</h1>
      <DataSettings couple={couple} />
    </main>
  );
}
