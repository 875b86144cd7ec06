import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { PageTitle } from "@/components/layout/PageTitle";
import { Alert } from "@/components/ui/Alert";
import { requireSignedIn } from "@/lib/auth/current-session";
import { loadCoupleProfile } from "@/lib/couples/queries";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Dashboard" };

/** `?welcome=partner`: partner B's first arrival (lib/onboarding/router PARTNER_WELCOME). */
const query = z.object({ welcome: z.literal("partner").optional() }).catch({});

/** The dashboard; partner B arriving from their set-up is first welcomed to their couple. */
export default async function DashboardPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { welcome } = query.parse(await searchParams);
  const { userId } = await requireSignedIn();
  const couple = welcome ? await withDb((db) => loadCoupleProfile(db, userId)) : null;
  const partner = couple?.partners.find((person) => person.id !== userId);
  return (
    <PageTitle title="Dashboard">
      {couple && (
        <Alert tone="success">
          <strong>Welcome to {couple.coupleName}!</strong> You and {partner?.firstName ?? "your partner"} are all set, and your couple profile is ready:{" "}
          <Link href="/profile">see your couple profile</Link>.
        </Alert>
      )}
      <p className="muted">This part of the product is on its way.</p>
    </PageTitle>
  );
}
