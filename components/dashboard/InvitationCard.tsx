"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { cancelInvitationAction, resendInvitationAction } from "@/app/(app)/dashboard/actions";
import { Alert } from "@/components/ui/Alert";
import type { PendingInvitation } from "@/lib/invitations/manage";
import styles from "./dashboard.module.css";
import { reach } from "@/lib/transport/actions";

const dateTime = (iso: string) =>
  new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso)) + " UTC";

/** While partner B has not joined: the pending invitation with 'Resend Invitation' and 'Cancel Invitation', or 'Invite Your Partner'. */
export function InvitationCard({ invitation }: { invitation: PendingInvitation | null }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: "success" | "error"; text: string } | null>(null);

  async function run(kind: "resend" | "cancel") {
    setBusy(true);
    setMessage(null);
    const result = kind === "resend" ? await reach(() => resendInvitationAction()) : await reach(() => cancelInvitationAction());
    setBusy(false);
    if (!result.ok) {
      setMessage({ tone: "error", text: result.message });
      return;
    }
    setMessage({ tone: "success", text: kind === "resend" ? "Invitation sent again." : "Invitation cancelled." });
    router.refresh();
  }

  return (
    <section className={`${styles.card} ${styles.wide}`} aria-labelledby="dashboard-invitation">
      <h2 id="dashboard-invitation">Your partner</h2>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      {invitation ? (
        <>
          <p>
            You invited <strong>{invitation.partnerFirstName}</strong> ({invitation.partnerEmail}).{" "}
            {invitation.expired
              ? `The invitation expired on ${dateTime(invitation.expiresAt)}.`
              : `The invitation expires on ${dateTime(invitation.expiresAt)}.`}
          </p>
          <div className="form-actions">
            <button type="button" className="button button-primary" disabled={busy} onClick={() => run("resend")}>
              Resend Invitation
            </button>
            <button type="button" className="button button-danger-outline" disabled={busy} onClick={() => run("cancel")}>
              Cancel Invitation
            </button>
          </div>
        </>
      ) : (
        <>
          <p className={styles.empty}>Your partner has not joined yet. Invite them so your couple profile is complete.</p>
          <div className="form-actions">
            <Link href="/invite-partner" className="button button-primary">
              Invite Your Partner
            </Link>
          </div>
        </>
      )}
    </section>
  );
}
