"use client";

import { useEffect, useRef, useState } from "react";
import { INVITATION_VALID_DAYS, invitationLink } from "@/lib/invitations/rules";
import type { SentInvitation } from "@/lib/invitations/send";
import { InviteLead } from "./InviteCard";
import styles from "./InviteSent.module.css";

type Props = { invitation: SentInvitation["invitation"]; onSendAnother: () => void; onDashboard: () => void };

/** 'They're In the Loop!': who was invited, and the link to share by other means, with a copy button. */
export function InviteSent({ invitation, onSendAnother, onDashboard }: Props) {
  const heading = useRef<HTMLHeadingElement>(null);
  const linkInput = useRef<HTMLInputElement>(null);
  const [copyStatus, setCopyStatus] = useState("");
  const link = invitationLink(window.location.origin, invitation.invitation_token);

  // The view replaced the form: move focus to its heading so screen readers start here.
  useEffect(() => heading.current?.focus(), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopyStatus("Copied");
    } catch {
      // No clipboard access (permissions, older browser): leave the link selected for Ctrl+C.
      linkInput.current?.select();
      setCopyStatus("Press Ctrl+C to copy the selected link");
    }
  };

  return (
    <section aria-labelledby="invite-sent-title">
      <h1 id="invite-sent-title" ref={heading} tabIndex={-1}>
        They&apos;re In the Loop!
      </h1>
      <InviteLead>
        We sent an invitation to{" "}
        <strong>
          {invitation.partner_first_name} {invitation.partner_last_name}
        </strong>{" "}
        at <strong>{invitation.partner_email}</strong>. They have {INVITATION_VALID_DAYS} days to join you.
      </InviteLead>
      <div className="field">
        <label htmlFor="invite-link">Shareable invitation link</label>
        <div className={styles.shareLink}>
          <input
            id="invite-link"
            ref={linkInput}
            type="text"
            readOnly
            value={link}
            aria-describedby="invite-link-hint"
            onFocus={(e) => e.currentTarget.select()}
          />
          <button type="button" className="button button-secondary" onClick={() => void copy()}>
            Copy link
          </button>
        </div>
        <p id="invite-link-hint" className="field-hint">
          Send it another way if the email doesn&apos;t arrive. It works once and expires in {INVITATION_VALID_DAYS} days; whoever joins
          with it confirms their email address first.
        </p>
        <p className={styles.copyStatus} role="status">
          {copyStatus}
        </p>
      </div>
      <div className={styles.actions}>
        <button type="button" className="button button-secondary" onClick={onSendAnother}>
          Send Another Invitation
        </button>
        <button type="button" className="button button-primary" onClick={onDashboard}>
          Go to Dashboard
        </button>
      </div>
    </section>
  );
}
