import { NextResponse } from "next/server";
import { route, stringParams } from "@/lib/http/route";
import { loadInvitation } from "@/lib/invitations/lookup";

/** Public: what the join screen shows about an open invitation. */
export const GET = route({ access: "public", params: stringParams("token") }, async ({ db, params, clientAddress }) => {
  const invitation = await loadInvitation(db, params.token, { clientAddress });
  return NextResponse.json({ success: true, invitation }, { headers: { "Cache-Control": "no-store" } });
});
