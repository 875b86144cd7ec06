import { AuthCard } from "@/components/ui/AuthCard";
import type { InvitationForPage } from "@/lib/invitations/queries";
import { InvalidInvitation } from "./InvitationProblem";
import { JoinForm } from "./JoinForm";
import { JoinWithAccount } from "./JoinWithAccount";
import styles from "./InvitationJoin.module.css";

type Props = { token: string; found: InvitationForPage };

/**
 * Partner B's join screen, shared by /invitation/accept and /register?invite=: the form for a new
 * account, or one button when the invited address is signed in already. A link that cannot be
 * used gets 'Invalid Invitation'.
 */
export function InvitationJoin({ token, found }: Props) {
  if (!found.ok) return <InvalidInvitation code={found.code} message={found.message} />;
  const { invitation } = found;
  return (
    <AuthCard title={`Welcome, ${invitation.partner_first_name}!`} subtitle={`${invitation.inviter_first_name} has invited you to join`}>
      {/* The spec's sentence ends at 'join'; the couple it means stands on its own line. */}
      <p className={styles.coupleName}>{invitation.couple_name}</p>
      {found.signedInAsInvitee ? (
        <JoinWithAccount token={token} email={invitation.partner_email} coupleName={invitation.couple_name} />
      ) : (
        <JoinForm token={token} email={invitation.partner_email} firstName={invitation.partner_first_name} />
      )}
    </AuthCard>
  );
}
