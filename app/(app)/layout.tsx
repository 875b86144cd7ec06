import type { ReactNode } from "react";
import { NavBar } from "@/components/layout/NavBar";
import { ServiceWorker } from "@/components/pwa/ServiceWorker";
import { requireCompleteProfile } from "@/lib/auth/current-session";

/**
 * Pages that need a complete profile, under the signed-in navigation bar. No loading.tsx here:
 * under a Suspense boundary the 200 is sent before a page runs, so notFound() could not answer 404.
 */
export default async function AppLayout({ children }: { children: ReactNode }) {
  await requireCompleteProfile();
  return (
    <>
      <NavBar />
      <ServiceWorker />
      {children}
    </>
  );
}
