import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/http/route";
import { interestsByCategory } from "@/lib/interests";
import { INTERESTS_CACHE_CONTROL } from "@/lib/interests/http";

/** Public, like GET /api/interests; the client reads the mapping from `data`. */
export const GET = apiRoute(async (_request, db) => {
  const data = await interestsByCategory(db);
  return NextResponse.json({ success: true, data, error: null }, { headers: { "Cache-Control": INTERESTS_CACHE_CONTROL } });
});
