import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ModerationNav } from "@/components/moderation/ModerationNav";
import { VerificationQueue } from "@/components/verification/VerificationQueue";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { mayGrantRoles, mayModerate } from "@/lib/membership/roles";
import { pendingVerifications } from "@/lib/verification/queries";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Photo verification" };

/** Moderators and admins only: the selfies waiting, each beside the couple's photos. Everyone else: not found. */
export default async function VerificationQueuePage() {
  const { couple } = await requireCompleteProfile();
  if (!mayModerate(couple.role)) notFound();
  const page = await withDb((db) => pendingVerifications(db, couple));
  return (
    <main id="main" className="page">
      <h1>Photo verification</h1>
      <ModerationNav current="verifications" admin={mayGrantRoles(couple.role)} />
      <VerificationQueue page={page} />
    </main>
  );
}
