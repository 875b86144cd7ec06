import { NextResponse } from "next/server";
import { clientAddress } from "@/lib/http/client-address";
import { parseWith, readJson } from "@/lib/http/errors";
import { apiRoute } from "@/lib/http/route";
import { deliverAfterResponse } from "@/lib/mail/outbox";
import { registrationPayloadSchema } from "@/lib/registration/schema";
import { registerAccount } from "@/lib/registration/service";

export const POST = apiRoute(async (request, db) => {
  const input = parseWith(registrationPayloadSchema, await readJson(request), "Please fill in all required fields correctly.");
  const { user, emailIds } = await registerAccount(db, input, { clientAddress: clientAddress(request.headers) });
  deliverAfterResponse(db, emailIds);
  return NextResponse.json(
    { success: true, message: "Please check your email to verify your account.", data: { user: { id: user.id, email: user.email } } },
    { status: 201 },
  );
});
