import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { CoupleProfileView } from "@/components/profile/CoupleProfileView";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { loadCoupleProfile, type CoupleProfile } from "@/lib/couples/queries";
import { AppError } from "@/lib/errors";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Your Couple Profile" };

/** The signed-in user's own couple. */
export default async function OwnProfilePage() {
  const { userId } = await requireCompleteProfile();
  let profile: CoupleProfile;
  try {
    profile = await withDb((db) => loadCoupleProfile(db, userId));
  } catch (error) {
    // The guard lets only complete profiles in; without a couple the profile is not complete.
    if (error instanceof AppError && error.code === "NOT_FOUND") redirect("/onboarding");
    throw error;
  }
  return <CoupleProfileView profile={profile} />;
}
