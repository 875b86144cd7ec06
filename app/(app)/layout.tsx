import type { ReactNode } from "react";
import { NavBar } from "@/components/layout/NavBar";
import { RestrictionProvider } from "@/components/moderation/RestrictionContext";
import { RestrictionNotice, WarningNotice } from "@/components/moderation/StandingNotices";
import { ServiceWorker } from "@/components/pwa/ServiceWorker";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { coupleNotices } from "@/lib/safety/sanctions";
import { withDb } from "@/lib/with-db";

/**
 * Pages that need a complete profile, under the signed-in navigation bar. No loading.tsx here:
 * under a Suspense boundary the 200 is sent before a page runs, so notFound() could not answer 404.
 * A moderators' warning not yet read comes before anything else; a restriction says why and
 * until when above every page.
 */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const { couple } = await requireCompleteProfile();
  const { warning, restriction } = await withDb((db) => coupleNotices(db, couple.coupleId));
  return (
    <>
      <NavBar />
      <ServiceWorker />
      {warning ? (
        <WarningNotice warning={warning} />
      ) : (
        <>
          {restriction && <RestrictionNotice restriction={restriction} />}
          <RestrictionProvider restriction={restriction}>{children}</RestrictionProvider>
        </>
      )}
    </>
  );
}
