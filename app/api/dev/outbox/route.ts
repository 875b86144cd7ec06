import { NextResponse } from "next/server";
import { devOutboxEnabled } from "@/lib/env";
import { clientAddress, isLoopback } from "@/lib/http/client-address";
import { route } from "@/lib/http/route";
import { listOutbox } from "@/lib/mail/outbox";

/** The development outbox: only while no e-mail provider is configured outside production, and only to this machine. */
export const GET = route({ access: "public" }, async ({ db, request }) => {
  if (!devOutboxEnabled() || !isLoopback(clientAddress(request.headers))) return NextResponse.json({ error: { code: "NOT_FOUND", message: "Not found" } }, { status: 404 });
  const to = request.nextUrl.searchParams.get("to") ?? undefined;
  return NextResponse.json({ messages: await listOutbox(db, to) }, { headers: { "Cache-Control": "no-store" } });
});
