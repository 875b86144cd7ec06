import type { ReactNode } from "react";
import { LiveViewer } from "@/components/layout/LiveViewer";
import { NavBar } from "@/components/layout/NavBar";
import { RestrictionProvider } from "@/components/moderation/RestrictionContext";
import { RestrictionNotice } from "@/components/moderation/RestrictionNotice";
import { WarningNotice } from "@/components/moderation/StandingNotices";
import { ServiceWorker } from "@/components/pwa/ServiceWorker";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { mayModerate } from "@/lib/membership/roles";
import { vapidKeys } from "@/lib/notifications/push/config";
import { sessionMark } from "@/lib/notifications/push/subscriptions";

/**
 * Pages that need a complete profile, under the signed-in navigation bar. No loading.tsx here:
 * under a Suspense boundary the 200 is sent before a page runs, so notFound() could not answer 404.
 * A moderators' warning not yet read comes before anything else; a restriction says why and
 * until when above every page (both read with the session: lib/safety/notices.ts). The live stream
 * is the person's the pages were rendered for (LiveViewer). Moderators get their queue's link.
 */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const { userId, sessionId, notices, couple } = await requireCompleteProfile();
  const { warning, restriction } = notices;
  return (
    <LiveViewer userId={userId}>
      <NavBar moderator={mayModerate(couple.role)} />
      <ServiceWorker userId={userId} pushKey={vapidKeys()?.publicKey ?? null} session={sessionMark(sessionId)} />
      {warning ? (
        <WarningNotice warning={warning} />
      ) : (
        <>
          {restriction && <RestrictionNotice restriction={restriction} />}
          <RestrictionProvider restriction={restriction}>{children}</RestrictionProvider>
        </>
      )}
    </LiveViewer>
  );
}
