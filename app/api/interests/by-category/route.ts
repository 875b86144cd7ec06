import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { interestsByCategory } from "@/lib/interests/service";
import { INTERESTS_CACHE_CONTROL } from "@/lib/interests/rules";

/** Public, like GET /api/interests; the client reads the mapping from `data`. */
export const GET = route({ access: "public" }, async ({ db }) => {
  const data = await interestsByCategory(db);
  return NextResponse.json({ success: true, data, error: null }, { headers: { "Cache-Control": INTERESTS_CACHE_CONTROL } });
});
