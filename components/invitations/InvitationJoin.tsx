import { AuthCard } from "@/components/ui/AuthCard";
import type { InvitationForPage } from "@/lib/invitations/page";
import { InvalidInvitation, InvitationLinkIssue } from "./InvitationProblem";
import { JoinForm } from "./JoinForm";

type Props = { token: string; found: InvitationForPage; variant: "register" | "accept" };

/** Partner B's join screen, shared by /invitation/accept and /register?invite=; a bad link gets that route's problem screen. */
export function InvitationJoin({ token, found, variant }: Props) {
  if (!found.ok) {
    const problem = { code: found.code, message: found.message };
    return variant === "register" ? <InvalidInvitation {...problem} /> : <InvitationLinkIssue {...problem} />;
  }
  const { invitation } = found;
  return (
    <AuthCard
      title={`Welcome, ${invitation.partner_first_name}!`}
      subtitle={
        <>
          {invitation.inviter_first_name} has invited you to join <strong>{invitation.couple_name}</strong>
        </>
      }
    >
      <JoinForm token={token} email={invitation.partner_email} firstName={invitation.partner_first_name} />
    </AuthCard>
  );
}
