import { NextResponse } from "next/server";
import { coupleUpdateSchema } from "@/lib/couples/schemas";
import { updateCouple } from "@/lib/couples/service";
import { COUPLE_REQUEST_BYTES } from "@/lib/couples/rules";
import { jsonBody, route, stringParams } from "@/lib/http/route";
import { LIMITS } from "@/lib/rate-limit";

/** Changes the caller's own couple; any other id, well-formed or not, is 404. */
export const PUT = route(
  {
    access: "signed-in",
    limits: [LIMITS.profileSavesPerUser],
    params: stringParams("id"),
    input: jsonBody(coupleUpdateSchema, { firstIssue: true }, { maxBytes: COUPLE_REQUEST_BYTES }),
  },
  async ({ db, caller, params, input, clientAddress }) => {
    const data = await updateCouple(db, caller.userId, params.id, input, { clientAddress });
    return NextResponse.json({ success: true, data });
  },
);
