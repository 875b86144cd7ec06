import Link from "next/link";
import type { PartnerVerification } from "@/lib/verification/queries";
import { decisionDate } from "@/lib/verification/rules";
import styles from "./Moderation.module.css";

/**
 * A partner's verification state in words, with the date it was sent or decided. On the reader's
 * own couple their partner's refusal comes without its reason (told to the partner alone).
 */
function stateOf(partner: PartnerVerification, own: boolean): string {
  switch (partner.status) {
    case "verified":
      return `Photo verified on ${decisionDate(partner.decidedAt!)}`;
    case "refused": {
      const refused = `Refused${partner.decidedAt ? ` on ${decisionDate(partner.decidedAt)}` : ""}`;
      if (partner.refusal) return `${refused}: ${partner.refusal.label}`;
      return own ? refused : `${refused}: no reason kept`;
    }
    case "pending":
      return `Waiting for a moderator${partner.submittedAt ? ` (sent on ${decisionDate(partner.submittedAt)})` : ""}`;
    default:
      return "Not started";
  }
}

/**
 * Each partner's photo verification on the couple's page for moderators: the state and its date;
 * a selfie only while it waits (from the moderators' selfie route), decided ones are deleted. On
 * the reader's own couple (`own`) the states alone: another moderator decides its selfies.
 */
export function PartnerVerifications({ partners, own }: { partners: PartnerVerification[]; own: boolean }) {
  return (
    <>
      {own && <p>This is your own couple: another moderator will decide its selfies.</p>}
      <ul className={styles.list}>
        {partners.map((partner) => (
          <li key={partner.userId} className="card">
            <p>
              <strong>{partner.firstName}</strong> · {stateOf(partner, own)}
            </p>
            {partner.pending && (
              <>
                <p>
                  Pose asked: <strong>{partner.pending.pose.label}</strong> ·{" "}
                  <Link href="/moderation/verifications">Decide in the verification queue</Link>
                </p>
                {/* eslint-disable-next-line @next/next/no-img-element -- a private selfie, served to moderators only */}
                <img
                  src={partner.pending.selfieUrl}
                  alt={`Selfie of ${partner.firstName}, waiting`}
                  className={styles.selfie}
                  loading="lazy"
                />
              </>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
