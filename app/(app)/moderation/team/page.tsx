import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ModerationNav } from "@/components/moderation/ModerationNav";
import { TeamRoles } from "@/components/moderation/TeamRoles";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { mayGrantRoles } from "@/lib/membership/roles";
import { moderationTeam } from "@/lib/safety/moderators";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Moderation team" };

/** Admins only (everyone else: not found): the moderators and admins, grant a role by e-mail, revoke one. */
export default async function ModerationTeamPage() {
  const { couple } = await requireCompleteProfile();
  if (!mayGrantRoles(couple.role)) notFound();
  const team = await withDb((db) => moderationTeam(db));
  return (
    <main id="main" className="page">
      <h1>Moderation team</h1>
      <ModerationNav current="team" admin />
      <p>Moderators run the queue and act on couples; admins also grant and revoke roles. Every change is in the log.</p>
      <TeamRoles team={team} viewerId={couple.userId} />
    </main>
  );
}
