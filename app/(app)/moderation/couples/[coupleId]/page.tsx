import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ActOnCouple } from "@/components/moderation/ActOnCouple";
import { EarlierActions } from "@/components/moderation/EarlierActions";
import { HeldHellos } from "@/components/moderation/HeldHellos";
import { ModerationNav } from "@/components/moderation/ModerationNav";
import { PartnerVerifications } from "@/components/moderation/PartnerVerifications";
import { ReportsAgainst } from "@/components/moderation/ReportsAgainst";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { mayGrantRoles, mayModerate } from "@/lib/membership/roles";
import { AppError } from "@/lib/errors";
import { coupleRecord } from "@/lib/safety/couple-record";
import { countText } from "@/lib/safety/rules";
import { partnerVerifications } from "@/lib/verification/queries";
import { canonicalId } from "@/lib/fields";
import { withDb } from "@/lib/with-db";
import styles from "@/components/moderation/Moderation.module.css";

export const metadata: Metadata = { title: "A couple, for moderators" };

/** Why the page offers no action (lib/safety/moderators.ts `leftToAnother`): deciding would be refused. */
const LEFT_TO_ANOTHER = {
  own: "This is your own couple: another moderator will act on it.",
  reported: "Your couple reported this couple: another moderator will act on it.",
} as const;

/** Moderators and admins only: a couple's record and the actions on it (acting from a report: `?report={id}`). */
export default async function ModerationCouplePage({
  params,
  searchParams,
}: {
  params: Promise<{ coupleId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { couple: viewer } = await requireCompleteProfile();
  if (!mayModerate(viewer.role)) notFound();
  const coupleId = canonicalId((await params).coupleId);
  const { report } = await searchParams;
  if (!coupleId) notFound();
  const [record, verifications] = await withDb((db) =>
    Promise.all([coupleRecord(db, coupleId, viewer), partnerVerifications(db, coupleId, viewer)]),
  ).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  });
  const reportId = (typeof report === "string" && canonicalId(report)) || undefined;
  const { ageDays } = record.couple;
  return (
    <main id="main" className="page">
      <h1>{record.couple.coupleName}</h1>
      <ModerationNav current="couple" admin={mayGrantRoles(viewer.role)} />
      <p>
        {record.couple.status === "suspended" ? "Suspended" : "Active"} · <Link href={`/profile/${coupleId}`}>Profile</Link> ·{" "}
        <Link href={`/moderation/log?couple=${coupleId}`}>Its log</Link>
      </p>
      <section aria-labelledby="facts-title">
        <h2 id="facts-title">Record</h2>
        <dl className={styles.facts}>
          <div>
            <dt>Account age</dt>
            <dd>
              {ageDays} day{ageDays === 1 ? "" : "s"}
            </dd>
          </div>
          {record.blocksReceived !== null && (
            <div>
              <dt>Blocks received</dt>
              <dd>{countText(record.blocksReceived.count, record.blocksReceived.capped)}</dd>
            </div>
          )}
          <div>
            <dt>Hellos sent (30 days)</dt>
            <dd>{record.hellos30Days.sent}</dd>
          </div>
          <div>
            <dt>Accepted</dt>
            <dd>{record.hellos30Days.accepted}</dd>
          </div>
          <div>
            <dt>Left unanswered</dt>
            <dd>{record.hellos30Days.unanswered}</dd>
          </div>
        </dl>
        <h3>Reports against it</h3>
        <ReportsAgainst reports={record.reports} />
      </section>
      <section aria-labelledby="verification-title">
        <h2 id="verification-title">Photo verification</h2>
        <PartnerVerifications partners={verifications} own={record.leftToAnother === "own"} />
      </section>
      <section aria-labelledby="held-title">
        <h2 id="held-title">Held hellos</h2>
        <HeldHellos held={record.held} decidable={record.leftToAnother === null} />
      </section>
      <section aria-labelledby="act-title">
        <h2 id="act-title">Act</h2>
        {record.leftToAnother === null ? (
          <ActOnCouple coupleId={coupleId} reportId={reportId} />
        ) : (
          <p>{LEFT_TO_ANOTHER[record.leftToAnother]}</p>
        )}
      </section>
      <section aria-labelledby="actions-title">
        <h2 id="actions-title">Earlier actions</h2>
        <EarlierActions actions={record.actions} decidable={record.leftToAnother === null} />
      </section>
    </main>
  );
}
