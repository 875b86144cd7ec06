import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ModerationQueue } from "@/components/forum/ModerationQueue";
import { AppealsQueue } from "@/components/moderation/AppealsQueue";
import { HeldCouples } from "@/components/moderation/HeldCouples";
import { ModerationNav } from "@/components/moderation/ModerationNav";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { moderationQueue } from "@/lib/forum/reports";
import { mayGrantRoles, mayModerate } from "@/lib/membership/roles";
import { openAppeals } from "@/lib/safety/appeals";
import { couplesWithHeldHellos } from "@/lib/safety/spam";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Moderation" };

/** Moderators and admins only: the open reports with their content, the appeals and the held hellos. Everyone else: not found. */
export default async function ModerationPage() {
  const { couple } = await requireCompleteProfile();
  if (!mayModerate(couple.role)) notFound();
  const [reports, appeals, held] = await withDb((db) =>
    Promise.all([moderationQueue(db, couple), openAppeals(db, couple), couplesWithHeldHellos(db, couple)]),
  );
  return (
    <main id="main" className="page">
      <h1>Moderation</h1>
      <ModerationNav current="queue" admin={mayGrantRoles(couple.role)} />
      <h2>Reports</h2>
      <ModerationQueue page={reports} />
      <AppealsQueue page={appeals} viewerId={couple.userId} />
      <HeldCouples page={held} />
    </main>
  );
}
