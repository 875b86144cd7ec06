import type { Metadata } from "next";
import Link from "next/link";
import { AppealForm } from "@/components/moderation/AppealForm";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { ownStanding, type OwnAction } from "@/lib/safety/appeals";
import { guidelineLabel, noticeDate } from "@/lib/safety/rules";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Your couple's standing" };

const KIND = { warn: "Warning", restrict: "Restriction", suspend: "Suspension", ban: "Ban" } as Record<string, string>;

/** Where an action stands: lifted, or a restriction's end ('until', or 'ended' once past); none for one standing until lifted. */
const stateOf = (action: OwnAction): string | null =>
  action.liftedAt ? "lifted" : action.endsAt ? `${action.standing ? "until" : "ended"} ${noticeDate(action.endsAt)}` : null;

/** The moderators' actions on the couple (never which moderator), each appealable once while it stands (`standing`). */
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
                {stateOf(action) && ` · ${stateOf(action)}`}
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
                action.standing && <AppealForm sanctionId={action.id} />
              )}
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
