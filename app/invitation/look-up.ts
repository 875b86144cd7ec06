import "server-only";
import { headers } from "next/headers";
import { auth } from "@/lib/auth/auth";
import { clientAddress } from "@/lib/http/client-address";
import { invitationForPage, type InvitationForPage } from "@/lib/invitations/page";

/** The join pages' adapter (/register?invite= and /invitation/accept): the invitation as this caller sees it. */
export async function lookUpInvitation(token: string): Promise<InvitationForPage> {
  const [session, requestHeaders] = await Promise.all([auth(), headers()]);
  return invitationForPage(token, { clientAddress: clientAddress(requestHeaders), userId: session?.claims.sub ?? null });
}
