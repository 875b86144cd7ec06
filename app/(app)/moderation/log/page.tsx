import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ModerationLog } from "@/components/moderation/ModerationLog";
import { ModerationNav } from "@/components/moderation/ModerationNav";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { mayGrantRoles, mayModerate } from "@/lib/membership/roles";
import { moderationLogPage } from "@/lib/safety/moderation-log";
import { logQuerySchema } from "@/lib/safety/moderation-schemas";
import { moderationTeam } from "@/lib/safety/moderators";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Moderation log" };

/** Moderators and admins only: every moderator action, newest first, filtered by moderator, couple and action. */
export default async function ModerationLogPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { couple } = await requireCompleteProfile();
  if (!mayModerate(couple.role)) notFound();
  const raw = await searchParams;
  const parsed = logQuerySchema.safeParse({ moderator: raw.moderator, couple: raw.couple, action: raw.action });
  const filters = parsed.success ? parsed.data : {};
  const [page, team] = await withDb((db) =>
    Promise.all([
      moderationLogPage(db, couple, { moderatorUserId: filters.moderator, coupleId: filters.couple, action: filters.action }),
      moderationTeam(db),
    ]),
  );
  return (
    <main id="main" className="page">
      <h1>Moderation log</h1>
      <ModerationNav current="log" admin={mayGrantRoles(couple.role)} />
      {!parsed.success && <p role="alert">Those filters are not valid; showing the whole log.</p>}
      <ModerationLog
        page={page}
        team={team}
        filters={{ moderator: filters.moderator ?? "", couple: filters.couple ?? "", action: filters.action ?? "" }}
      />
    </main>
  );
}
