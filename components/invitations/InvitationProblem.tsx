"use client";

import Link from "next/link";
import { SUPPORT_EMAIL } from "@/components/auth/VerifyEmail";

/** Why the link failed, when it says more than the screen's own text (expired, couple full, too many tries). */
function Reason({ code, message }: { code?: string; message?: string }) {
  if (!message || code === "INVALID_INVITATION") return null;
  return <p>{message}</p>;
}

type Problem = { code?: string; message?: string };

/** /register?invite= with a link that cannot be used. */
export function InvalidInvitation(problem: Problem) {
  return (
    <main id="main" className="auth-page">
      <section className="auth-card invitation-problem" aria-labelledby="invitation-problem-title">
        <h1 id="invitation-problem-title">Invalid Invitation</h1>
        <p>This invitation link is invalid or has expired.</p>
        <Reason {...problem} />
        <div className="invite-actions">
          <Link href="/register" className="button button-primary">
            Go to Registration
          </Link>
        </div>
      </section>
    </main>
  );
}

/**
 * /invitation/accept with a link that cannot be used, and the route's error screen. Try Again
 * re-runs the page (the error boundary's reset, or a reload).
 */
export function InvitationLinkIssue({ onTryAgain, ...problem }: Problem & { onTryAgain?: () => void }) {
  return (
    <main id="main" className="auth-page">
      <section className="auth-card invitation-problem" aria-labelledby="invitation-problem-title">
        <h1 id="invitation-problem-title">Invitation Link Issue</h1>
        <p>This invitation may have expired, already been used, or the link may be damaged.</p>
        <Reason {...problem} />
        <div className="invite-actions">
          <button type="button" className="button button-primary" onClick={onTryAgain ?? (() => window.location.reload())}>
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
