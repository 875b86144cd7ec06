import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { InvitationJoin } from "@/components/invitations/InvitationJoin";
import { currentVisitor } from "@/lib/auth/current-session";
import { invitationForPage } from "@/lib/invitations/queries";

export const metadata: Metadata = { title: "Join your partner", referrer: "no-referrer" };

type Params = { token?: string | string[]; invite?: string | string[] };
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Also /register?invite=... (middleware.ts rewrites it here): an empty invite there is an invalid link, not a redirect. */
export default async function InvitationAcceptPage({ searchParams }: { searchParams: Promise<Params> }) {
  const params = await searchParams;
  const token = first(params.token) || first(params.invite);
  if (token === undefined || (!token && params.invite === undefined)) redirect("/register");
  return <InvitationJoin token={token} found={await invitationForPage(token, await currentVisitor())} />;
}
