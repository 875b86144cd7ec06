import type { Metadata } from "next";
import Link from "next/link";
import { InviteCard, InviteLead } from "@/components/invitations/InviteCard";
import { InviteForm } from "@/components/invitations/InviteForm";
import { requireSignedIn } from "@/lib/auth/current-session";
import { inviteScreen } from "@/lib/invitations/send";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Invite your partner" };

export default async function InvitePartnerPage() {
  const { userId } = await requireSignedIn();
  const screen = await withDb((db) => inviteScreen(db, userId));
  return (
    <InviteCard>
      {screen.kind === "ready" && <InviteForm ownEmail={screen.ownEmail} />}
      {screen.kind === "no-couple" && (
        <>
          <h1>Invite your partner</h1>
          <InviteLead>Create your couple profile first; then you can invite your partner to join it.</InviteLead>
          <Link href="/onboarding" className="button button-primary">
            Create your couple profile
          </Link>
        </>
      )}
      {screen.kind === "couple-complete" && (
        <>
          <h1>You&apos;re both here</h1>
          <InviteLead>Your couple already has two partners, so there is nobody left to invite.</InviteLead>
          <Link href="/dashboard" className="button button-primary">
            Go to Dashboard
          </Link>
        </>
      )}
    </InviteCard>
  );
}
