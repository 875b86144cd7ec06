import type { Metadata } from "next";
import { ConfirmEmailChange } from "@/components/settings/ConfirmEmailChange";
import styles from "@/components/settings/settings.module.css";
import { pendingEmailChange } from "@/lib/auth/account-security";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Confirm your new email", referrer: "no-referrer" };

export default async function ConfirmEmailPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { userId } = await requireCompleteProfile();
  const { token } = await searchParams;
  const link = typeof token === "string" ? token : "";
  // The signed-in account's own pending change only: another account's link names no address.
  const newEmail = link ? await withDb((db) => pendingEmailChange(db, userId, link)) : null;
  return (
    <main id="main" className={styles.narrow}>
      <h1>Confirm your new email</h1>
      <ConfirmEmailChange token={link} newEmail={newEmail} />
    </main>
  );
}
