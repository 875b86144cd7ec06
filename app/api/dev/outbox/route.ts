import { NextResponse } from "next/server";
import { devOutboxEnabled } from "@/lib/env";
import { clientAddress, isLoopback } from "@/lib/http/client-address";
import { parseWith } from "@/lib/http/errors";
import { route } from "@/lib/http/route";
import { listOutbox } from "@/lib/mail/outbox";
import { outboxQuerySchema } from "@/lib/mail/schemas";

/** The development outbox: only while no e-mail provider is configured outside production, and only to this machine. */
export const GET = route({ access: "public" }, async ({ db, request }) => {
  if (!devOutboxEnabled() || !isLoopback(clientAddress(request.headers)))
    return NextResponse.json({ error: { code: "NOT_FOUND", message: "Not found" } }, { status: 404 });
  // Read after the checks above, so a closed outbox answers 404 whatever the query says.
  const { to } = parseWith(outboxQuerySchema, Object.fromEntries(request.nextUrl.searchParams));
  return NextResponse.json({ messages: await listOutbox(db, to) }, { headers: { "Cache-Control": "no-store" } });
});
