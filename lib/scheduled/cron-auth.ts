import "server-only";
import { safeEqual } from "@/lib/auth/secrets";
import { env } from "@/lib/env";

/** Whether an Authorization header carries the configured CRON_SECRET (never, while none is set); compared in constant time. */
export function cronAuthorized(authorization: string | null): boolean {
  const secret = env().CRON_SECRET;
  if (!secret || authorization === null) return false;
  return safeEqual(authorization, `Bearer ${secret}`);
}
