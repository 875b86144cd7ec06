import { NextResponse } from "next/server";
import { runDueWork } from "@/lib/scheduled/service";
import { mayReadOutbox } from "@/lib/http/preview-access";
import { parseWith } from "@/lib/http/errors";
import { route } from "@/lib/http/route";
import { listOutbox } from "@/lib/mail/outbox";
import { outboxQuerySchema } from "@/lib/mail/schemas";

/** The development outbox: to this machine while it is enabled (lib/env devOutboxEnabled), and to a preview's reviewer. */
export const GET = route({ access: "public" }, async ({ db, request }) => {
  if (!mayReadOutbox(request.headers)) return NextResponse.json({ error: { code: "NOT_FOUND", message: "Not found" } }, { status: 404 });
  // Read after the checks above, so a closed outbox answers 404 whatever the query says.
  const { to } = parseWith(outboxQuerySchema, Object.fromEntries(request.nextUrl.searchParams));
  // As the outbox page: the due work runs first, so the unread-message e-mail shows where crons do not run.
  await runDueWork(db);
  return NextResponse.json({ messages: await listOutbox(db, to) }, { headers: { "Cache-Control": "no-store" } });
});
