import { NextResponse } from "next/server";
import { z } from "zod";
import { updateCouple } from "@/lib/couples/service";
import { parseWith, readJson } from "@/lib/http/errors";
import { apiRoute } from "@/lib/http/route";
import { requireCaller } from "@/lib/http/request-auth";
import { coupleUpdateSchema } from "@/lib/couples/schemas";

const targetSchema = z.object({ id: z.string({ error: "id must be a couple id" }).nullish() });

/** The spec's fallback update: the couple named by `id` in the body, else the caller's own. */
export const PUT = apiRoute(async (request, db) => {
  const caller = await requireCaller(db, request);
  const { id, ...fields } = await readJson(request);
  const target = parseWith(targetSchema, { id }).id ?? null;
  const data = await updateCouple(db, caller.userId, target, parseWith(coupleUpdateSchema, fields, { firstIssue: true }));
  return NextResponse.json({ success: true, data });
});
