import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { PageTitle } from "@/components/layout/PageTitle";

export const metadata: Metadata = { title: "Join your partner", referrer: "no-referrer" };

export default async function InvitationAcceptPage({ searchParams }: { searchParams: Promise<{ token?: string; invite?: string }> }) {
  const { token, invite } = await searchParams;
  if (!token && !invite) redirect("/register");
  return <PageTitle title="Join your partner" />;
}
