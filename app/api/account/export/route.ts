import { NextResponse } from "next/server";
import { exportAccount } from "@/lib/account/export";
import { route } from "@/lib/http/route";

/** 'Download my data': everything about the caller and their couple, as a JSON file. */
export const GET = route({ access: "signed-in" }, async ({ db, caller }) => {
  const data = await exportAccount(db, caller.userId);
  const day = data.exportedAt.slice(0, 10);
  return new NextResponse(JSON.stringify(data, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="two-of-us-data-${day}.json"`,
      "Cache-Control": "no-store",
    },
  });
});
