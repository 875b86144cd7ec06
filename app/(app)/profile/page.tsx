import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { CoupleProfileView } from "@/components/profile/CoupleProfileView";
import { getDb } from "@/db/client";
import { requireSignedIn } from "@/lib/auth/current-session";
import { coupleIdOf, loadCoupleProfile } from "@/lib/couples/profile";

export const metadata: Metadata = { title: "Your Couple Profile" };

/** The signed-in user's own couple. */
export default async function OwnProfilePage() {
  const { userId } = await requireSignedIn();
  const db = await getDb();
  const coupleId = await coupleIdOf(db, userId);
  // The guard lets only complete profiles in; without a couple the profile is not complete.
  if (!coupleId) redirect("/onboarding");
  return <CoupleProfileView profile={await loadCoupleProfile(db, userId, coupleId)} />;
}
