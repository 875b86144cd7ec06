import { NextResponse } from "next/server";
import { verifyEmail } from "@/lib/auth/email-verification";
import { verifyEmailSchema } from "@/lib/auth/schemas";
import { jsonBody, route } from "@/lib/http/route";

export const POST = route({ access: "public", input: jsonBody(verifyEmailSchema) }, async ({ db, input }) => {
  await verifyEmail(db, input);
  return NextResponse.json({ success: true, message: "Email verified successfully! You can now log in." });
});
