import { type NextRequest, NextResponse } from "next/server";
import { checkHealth } from "@/lib/health";

/** GET /api/health (liveness) and GET /api/health?ready=1 (readiness: the database answers within 1 s). */
export async function GET(request: NextRequest) {
  const { status, body, retryAfterSeconds } = await checkHealth(request.nextUrl.searchParams.get("ready") === "1");
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  if (retryAfterSeconds) headers["Retry-After"] = String(retryAfterSeconds);
  return NextResponse.json(body, { status, headers });
}
