import type { Metadata } from "next";
import { RegisterForm } from "@/components/auth/RegisterForm";
import { InvitationJoin } from "@/components/invitations/InvitationJoin";
import { AuthCard } from "@/components/ui/AuthCard";
import { currentVisitor } from "@/lib/auth/current-session";
import { invitationForPage } from "@/lib/invitations/page";

export const metadata: Metadata = { title: "Create your account", referrer: "no-referrer" };

type Params = { invite?: string | string[] };

export default async function RegisterPage({ searchParams }: { searchParams: Promise<Params> }) {
  const { invite } = await searchParams;
  const token = Array.isArray(invite) ? invite[0] : invite;
  // An invited partner joins the couple with the partner form instead of creating a couple of their own.
  if (token !== undefined) return <InvitationJoin token={token} found={await invitationForPage(token, await currentVisitor())} />;
  return (
    <AuthCard title="Create your account" subtitle="Partner 1 starts here. You will invite your partner once your couple profile is ready.">
      <RegisterForm />
    </AuthCard>
  );
}
