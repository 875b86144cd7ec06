import { NextResponse } from "next/server";
import { exportAccount } from "@/lib/account/export";
import { jsonStream } from "@/lib/http/json-stream";
import { route } from "@/lib/http/route";

/** 'Download my data': everything about the caller and their couple, as a JSON file, streamed (a long history passes 4.5 MB). */
export const GET = route({ access: "signed-in" }, async ({ db, caller }) => {
  const data = await exportAccount(db, caller.userId);
  const day = data.exportedAt.slice(0, 10);
  return new NextResponse(jsonStream(data), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="two-of-us-data-${day}.json"`,
      "Cache-Control": "no-store",
    },
  });
});
