import { NextResponse } from "next/server";
import { unsubscribe } from "@/lib/notifications/preferences";
import { unsubscribeQuerySchema } from "@/lib/notifications/schemas";
import { route, searchParams } from "@/lib/http/route";

/**
 * One-click unsubscribe (RFC 8058: the List-Unsubscribe-Post of a notification e-mail, and the
 * /unsubscribe page's button): turns e-mail off for the link's type. No sign-in; the link works once.
 */
export const POST = route({ access: "public", input: searchParams(unsubscribeQuerySchema) }, async ({ db, input }) => {
  return NextResponse.json({ data: await unsubscribe(db, input.token) });
});
