import { NextResponse } from "next/server";
import { clientAddress } from "@/lib/http/client-address";
import { apiRoute } from "@/lib/http/route";
import { loadInvitation } from "@/lib/invitations/lookup";

/** Public: what the join screen shows about an open invitation. */
export const GET = apiRoute<{ token: string }>(async (request, db, { token }) => {
  const invitation = await loadInvitation(db, token, { clientAddress: clientAddress(request.headers) });
  return NextResponse.json({ success: true, invitation }, { headers: { "Cache-Control": "no-store" } });
});
