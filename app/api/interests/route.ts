import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { listInterests } from "@/lib/interests/service";
import { INTERESTS_CACHE_CONTROL } from "@/lib/interests/rules";

/** Public: the picker is shown before anything personal is known. */
export const GET = route({ access: "public" }, async ({ db }) => {
  const data = await listInterests(db);
  return NextResponse.json({ success: true, data, error: null }, { headers: { "Cache-Control": INTERESTS_CACHE_CONTROL } });
});
