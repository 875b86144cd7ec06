import { NextResponse } from "next/server";
import { updateCouple } from "@/lib/couples/service";
import { parseWith, readJson } from "@/lib/http/errors";
import { apiRoute } from "@/lib/http/route";
import { requireCaller } from "@/lib/http/request-auth";
import { coupleUpdateSchema } from "@/lib/couples/schemas";

/** Changes the caller's own couple; any other id, well-formed or not, is 404. */
export const PUT = apiRoute<{ id: string }>(async (request, db, { id }) => {
  const caller = await requireCaller(db, request);
  const input = parseWith(coupleUpdateSchema, await readJson(request), { firstIssue: true });
  const data = await updateCouple(db, caller.userId, id, input);
  return NextResponse.json({ success: true, data });
});
