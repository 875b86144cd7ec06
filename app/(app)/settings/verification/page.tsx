import type { Metadata } from "next";
import { PhotoVerification } from "@/components/verification/PhotoVerification";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { myVerification } from "@/lib/verification/service";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Photo verification" };

/** Settings › Photo verification: the partner's state and, when they may send one, a selfie in a newly picked pose. */
export default async function VerificationSettingsPage() {
  const { couple } = await requireCompleteProfile();
  const state = await withDb((db) => myVerification(db, couple));
  return (
    <main id="main">
      <h1>Photo verification</h1>
      <PhotoVerification initial={state} />
    </main>
  );
}
