import { NextResponse } from "next/server";
import { streamAccountExport } from "@/lib/account/export";
import { route } from "@/lib/http/route";

/**
 * 'Download my data': everything about the caller and their couple, as a JSON file, streamed (a
 * long history passes 4.5 MB) as its long lists are read, a page at a time, in one snapshot.
 */
export const GET = route({ access: "signed-in" }, async ({ db, caller }) => {
  const { exportedAt, body } = await streamAccountExport(db, caller.userId);
  return new NextResponse(body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="two-of-us-data-${exportedAt.slice(0, 10)}.json"`,
      "Cache-Control": "no-store",
    },
  });
});
