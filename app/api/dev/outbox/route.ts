import { NextResponse } from "next/server";
import { devOutboxEnabled } from "@/lib/env";
import { route, searchParams } from "@/lib/http/route";
import { listOutbox } from "@/lib/mail/outbox";
import { outboxQuerySchema } from "@/lib/mail/schemas";

/** The development outbox: only while no e-mail provider is configured outside production. */
export const GET = route({ access: "public", input: searchParams(outboxQuerySchema) }, async ({ db, input }) => {
  if (!devOutboxEnabled()) return NextResponse.json({ error: { code: "NOT_FOUND", message: "Not found" } }, { status: 404 });
  return NextResponse.json({ messages: await listOutbox(db, input.to) }, { headers: { "Cache-Control": "no-store" } });
});
