import type { Metadata } from "next";
import { Unsubscribe } from "@/components/settings/Unsubscribe";
import { AuthCard } from "@/components/ui/AuthCard";

export const metadata: Metadata = { title: "Unsubscribe", referrer: "no-referrer", robots: { index: false } };

/** The notification e-mails' unsubscribe link: public, no sign-in. */
export default async function UnsubscribePage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  return (
    <AuthCard title="Unsubscribe from these e-mails">
      <Unsubscribe token={typeof token === "string" ? token : ""} />
    </AuthCard>
  );
}
