import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { deliverAfterResponse } from "@/lib/mail/outbox";
import { registrationPayloadSchema } from "@/lib/registration/schemas";
import { registerAccount } from "@/lib/registration/service";

export const POST = route(
  { access: "public", input: jsonBody(registrationPayloadSchema, "Please fill in all required fields correctly.") },
  async ({ db, input, clientAddress }) => {
    const { user, emailIds } = await registerAccount(db, input, { clientAddress });
    deliverAfterResponse(db, emailIds);
    return NextResponse.json(
      { success: true, message: "Please check your email to verify your account.", data: { user: { id: user.id, email: user.email } } },
      { status: 201 },
    );
  },
);
