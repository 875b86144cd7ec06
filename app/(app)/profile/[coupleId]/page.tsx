import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CoupleSafetyActions } from "@/components/forum/CoupleSafetyActions";
import { CoupleProfileView } from "@/components/profile/CoupleProfileView";
import { requireSignedIn } from "@/lib/auth/current-session";
import { loadCoupleProfile, type CoupleProfile } from "@/lib/couples/queries";
import { AppError } from "@/lib/errors";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Couple Profile" };

/** Any couple's profile, as the signed-in user may see it; hidden and missing both read as not found. */
export default async function CoupleProfilePage({ params }: { params: Promise<{ coupleId: string }> }) {
  const { coupleId } = await params;
  const { userId } = await requireSignedIn();
  let profile: CoupleProfile;
  try {
    profile = await withDb((db) => loadCoupleProfile(db, userId, coupleId));
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  return <CoupleProfileView profile={profile} actions={profile.isOwn ? undefined : <CoupleSafetyActions coupleId={profile.id} coupleName={profile.coupleName} />} />;
}
