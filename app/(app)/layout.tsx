import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { NavBar } from "@/components/layout/NavBar";
import { requireSignedIn } from "@/lib/auth/current-session";

/** Pages that need a complete profile, under the signed-in navigation bar. */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const account = await requireSignedIn();
  if (!account.profileComplete) redirect("/onboarding");
  return (
    <>
      <NavBar />
      {children}
    </>
  );
}
