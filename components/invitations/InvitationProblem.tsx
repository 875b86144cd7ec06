"use client";

import Link from "next/link";
import { SUPPORT_EMAIL } from "@/components/auth/VerifyEmail";

/** /register?invite= and /invitation/accept with a link that cannot be used. */
export function InvalidInvitation({ code, message }: { code: string; message: string }) {
  // An expired link, a couple that filled up or too many tries say more than the screen's own text.
  const reason = code === "INVALID_INVITATION" ? null : message;
  return (
    <main id="main" className="auth-page">
      <section className="auth-card invitation-problem" aria-labelledby="invitation-problem-title">
        <h1 id="invitation-problem-title">Invalid Invitation</h1>
        <p>This invitation link is invalid or has expired.</p>
        {reason && <p>{reason}</p>}
        <div className="invite-actions">
          <Link href="/register" className="button button-primary">
            Go to Registration
          </Link>
        </div>
      </section>
    </main>
  );
}

/** /invitation/accept's error screen, for anything unexpected: Try Again re-runs the page. */
export function InvitationLinkIssue({ onTryAgain }: { onTryAgain: () => void }) {
  return (
    <main id="main" className="auth-page">
      <section className="auth-card invitation-problem" aria-labelledby="invitation-problem-title">
        <h1 id="invitation-problem-title">Invitation Link Issue</h1>
        <p>This invitation may have expired, already been used, or the link may be damaged.</p>
        <div className="invite-actions">
          <button type="button" className="button button-primary" onClick={onTryAgain}>
            Try Again
          </button>
          <Link href="/register" className="button button-secondary">
            Create New Account
          </Link>
        </div>
        <p className="auth-footer">
          Already have an account? <Link href="/login">Sign in</Link>
        </p>
        <p className="auth-footer">
          Need help? <a href={`mailto:${SUPPORT_EMAIL}`}>Contact support</a>
        </p>
      </section>
    </main>
  );
}
