import Link from "next/link";
import { Alert } from "@/components/ui/Alert";
import { AuthCard, AuthFooter, SUPPORT_EMAIL } from "@/components/ui/AuthCard";
import { MESSAGES } from "@/lib/invitations/rules";
import styles from "./InvitationProblem.module.css";

/** /register?invite= and /invitation/accept with a link that cannot be used. */
export function InvalidInvitation({ code, message }: { code: string; message: string }) {
  // An expired link, a couple that filled up or too many tries say more than the screen's own text.
  const reason = code === "INVALID_INVITATION" ? null : message;
  return (
    <AuthCard title="Invalid Invitation" brand={false} className={styles.problem}>
      <p>This invitation link is invalid or has expired.</p>
      {reason && <p>{reason}</p>}
      <div className={styles.actions}>
        <Link href="/register" className="button button-primary">
          Go to Registration
        </Link>
      </div>
    </AuthCard>
  );
}

/**
 * /invitation/accept's error screen, for anything unexpected: the page's one piece of work is the
 * invitation's look-up, so it says that failed (section 8's invitation load); Try Again re-runs the page.
 */
export function InvitationLinkIssue({ onTryAgain }: { onTryAgain: () => void }) {
  return (
    <AuthCard title="Invitation Link Issue" brand={false} className={styles.problem}>
      <Alert tone="error">{MESSAGES.loadFailed}</Alert>
      <p>This invitation may have expired, already been used, or the link may be damaged.</p>
      <div className={styles.actions}>
        <button type="button" className="button button-primary" onClick={onTryAgain}>
          Try Again
        </button>
        <Link href="/register" className="button button-secondary">
          Create New Account
        </Link>
      </div>
      <AuthFooter>
        Already have an account? <Link href="/login">Sign in</Link>
      </AuthFooter>
      <AuthFooter>
        Need help? <a href={`mailto:${SUPPORT_EMAIL}`}>Contact support</a>
      </AuthFooter>
    </AuthCard>
  );
}
