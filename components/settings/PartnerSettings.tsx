"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { cancelInvitationAction, resendInvitationAction } from "@/app/(app)/dashboard/actions";
import { Dialog } from "@/components/ui/Dialog";
import { FacePhoto } from "@/components/ui/FacePhoto";
import { FormActions } from "@/components/ui/FormActions";
import type { PartnerView } from "@/lib/invitations/manage";
import { StatusLine } from "./StatusLine";
import type { Status } from "./useSettingsSave";
import styles from "./settings.module.css";
import { reach } from "@/lib/transport/actions";

const day = (iso: string) => new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric" });

/** 'Partner': who the partner is; else the pending invitation with 'Resend' and 'Cancel'; else the way to invite. */
export function PartnerSettings({ initial }: { initial: PartnerView }) {
  const [view, setView] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const [confirming, setConfirming] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  const resend = async () => {
    if (view.kind !== "invited") return;
    setBusy(true);
    setStatus(null);
    const result = await reach(() => resendInvitationAction());
    setBusy(false);
    if (!result.ok) return setStatus({ tone: "error", text: result.message });
    setView({ kind: "invited", invitation: { ...view.invitation, expiresAt: result.expiresAt, expired: false } });
    setStatus({ tone: "success", text: `We sent a new invitation to ${view.invitation.partnerEmail}. The earlier links no longer work.` });
  };

  const cancel = async () => {
    setConfirming(false);
    setBusy(true);
    setStatus(null);
    const result = await reach(() => cancelInvitationAction());
    setBusy(false);
    if (!result.ok) return setStatus({ tone: "error", text: result.message });
    setView({ kind: "none", canInvite: true });
    setStatus({ tone: "success", text: "Invitation cancelled. Its links no longer work." });
    heading.current?.focus();
  };

  return (
    <section className={styles.section} aria-labelledby="partner-title">
      <h2 id="partner-title" ref={heading} tabIndex={-1}>
        {view.kind === "partner" ? "Your partner" : view.kind === "invited" ? "Invitation pending" : "No partner yet"}
      </h2>
      {view.kind === "partner" && (
        <div className={styles.who}>
          <FacePhoto src={view.partner.avatarUrl} size={48} kind="person" className={styles.avatar} />
          <span>
            <strong>
              {view.partner.firstName} {view.partner.lastName}
            </strong>
            {view.partner.occupation && (
              <>
                <br />
                <span className="muted">{view.partner.occupation}</span>
              </>
            )}
          </span>
        </div>
      )}
      {view.kind === "invited" && (
        <>
          <p>
            You invited{" "}
            <strong>
              {view.invitation.partnerFirstName} {view.invitation.partnerLastName}
            </strong>{" "}
            at <strong>{view.invitation.partnerEmail}</strong>.{" "}
            {view.invitation.expired
              ? `The invitation expired on ${day(view.invitation.expiresAt)}.`
              : `It is valid until ${day(view.invitation.expiresAt)}.`}
          </p>
          <div className={styles.actions}>
            <button type="button" className="button button-primary" disabled={busy} onClick={() => void resend()}>
              Resend
            </button>
            <button type="button" className="button button-secondary" disabled={busy} onClick={() => setConfirming(true)}>
              Cancel
            </button>
          </div>
          <Dialog open={confirming} onClose={() => setConfirming(false)} title="Cancel the invitation?">
            <p>The links we sent to {view.invitation.partnerEmail} will stop working. You can invite your partner again at any time.</p>
            <FormActions
              tone="danger"
              label="Cancel invitation"
              onAction={() => void cancel()}
              onCancel={() => setConfirming(false)}
              cancelLabel="Keep it"
              focusCancel
            />
          </Dialog>
        </>
      )}
      {view.kind === "none" &&
        (view.canInvite ? (
          <>
            <p>Invite your partner to join your couple profile.</p>
            <Link href="/invite-partner" className="button button-primary">
              Invite your partner
            </Link>
          </>
        ) : (
          <p>Your couple has no second partner yet.</p>
        ))}
      <StatusLine status={status} />
    </section>
  );
}
