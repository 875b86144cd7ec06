import type { Metadata } from "next";
import Link from "next/link";
import { AppealForm } from "@/components/moderation/AppealForm";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { ownStanding } from "@/lib/safety/appeals";
import { guidelineLabel, noticeDate } from "@/lib/safety/rules";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Your couple's standing" };

const KIND = { warn: "Warning", restrict: "Restriction", suspend: "Suspension", ban: "Ban" } as Record<string, string>;

/** The moderators' actions on the couple (never which moderator), each appealable once. */
export default async function AppealPage() {
  const { couple } = await requireCompleteProfile();
  const actions = await withDb((db) => ownStanding(db, couple.coupleId));
  return (
    <main id="main" className="page">
      <h1>Your couple&apos;s standing</h1>
      <p>
        What our moderators did about your couple, and your appeals. <Link href="/safety">How moderation works</Link>
      </p>
      {actions.length === 0 ? (
        <p>Nothing: your couple is in good standing.</p>
      ) : (
        <ul className="stack">
          {actions.map((action) => (
            <li key={action.id} className="card">
              <p>
                <strong>{KIND[action.kind] ?? action.kind}</strong> for &lsquo;{guidelineLabel(action.reason)}&rsquo; ·{" "}
                <RelativeTime at={action.createdAt} />
                {action.endsAt && !action.liftedAt && <> · until {noticeDate(action.endsAt)}</>}
                {action.liftedAt && " · lifted"}
              </p>
              {action.appealedAt ? (
                <p>
                  Appealed <RelativeTime at={action.appealedAt} />:{" "}
                  {action.appealDecision === null
                    ? "waiting for a moderator"
                    : action.appealDecision === "lifted"
                      ? "granted"
                      : "not granted"}
                </p>
              ) : (
                !action.liftedAt && <AppealForm sanctionId={action.id} />
              )}
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
