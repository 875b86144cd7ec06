import type { Metadata } from "next";
import { ConfirmEmailChange } from "@/components/settings/ConfirmEmailChange";
import styles from "@/components/settings/settings.module.css";

export const metadata: Metadata = { title: "Confirm your new email", referrer: "no-referrer" };

export default async function ConfirmEmailPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  return (
    <main id="main" className={styles.narrow}>
      <h1>Confirm your new email</h1>
      <ConfirmEmailChange token={typeof token === "string" ? token : ""} />
    </main>
  );
}
