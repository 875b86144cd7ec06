import { NextResponse } from "next/server";
import { z } from "zod";
import { verifyEmail } from "@/lib/auth/email-verification";
import { parseWith, readJson } from "@/lib/http/errors";
import { apiRoute } from "@/lib/http/route";

const verifySchema = z.object({ token: z.string().min(1).max(200), email: z.string().max(254).optional() });

export const POST = apiRoute(async (request, db) => {
  const input = parseWith(verifySchema, await readJson(request));
  await verifyEmail(db, input);
  return NextResponse.json({ success: true, message: "Email verified successfully! You can now log in." });
});
