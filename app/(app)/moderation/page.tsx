import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ModerationQueue } from "@/components/forum/ModerationQueue";
import { ModerationNav } from "@/components/moderation/ModerationNav";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { mayModerate } from "@/lib/membership/roles";
import { moderationQueue } from "@/lib/forum/reports";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Moderation" };

/** Moderators and admins only: the open reports with their content, to dismiss or remove. Everyone else: not found. */
export default async function ModerationPage() {
  const { couple } = await requireCompleteProfile();
  if (!mayModerate(couple.role)) notFound();
  const reports = await withDb((db) => moderationQueue(db));
  return (
    <main id="main" className="page">
      <h1>Moderation</h1>
      <ModerationNav current="queue" />
      <ModerationQueue reports={reports} />
    </main>
  );
}
