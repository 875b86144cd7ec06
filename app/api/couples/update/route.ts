import { NextResponse } from "next/server";
import { COUPLE_REQUEST_BYTES } from "@/lib/couples/rules";
import { coupleUpdateSchema, coupleUpdateTargetSchema } from "@/lib/couples/schemas";
import { updateCouple } from "@/lib/couples/service";
import { parseWith, readJson } from "@/lib/http/errors";
import { route } from "@/lib/http/route";
import { LIMITS } from "@/lib/rate-limit";

/** The body names the target couple beside the fields: the target is checked first, then the fields. */
async function readTargetAndFields(request: Request) {
  const { id, ...fields } = await readJson(request, COUPLE_REQUEST_BYTES);
  const target = parseWith(coupleUpdateTargetSchema, { id }).id ?? null;
  return { target, fields: parseWith(coupleUpdateSchema, fields, { firstIssue: true }) };
}

/** The spec's fallback update: the couple named by `id` in the body, else the caller's own. */
export const PUT = route(
  { access: "signed-in", limits: [LIMITS.profileSavesPerUser], input: readTargetAndFields },
  async ({ db, caller, input, clientAddress }) => {
    const data = await updateCouple(db, caller.userId, input.target, input.fields, { clientAddress });
    return NextResponse.json({ success: true, data });
  },
);
