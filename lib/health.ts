import "server-only";
import { databaseReady } from "@/db/client";
import { RETRY_AFTER_SECONDS } from "@/db/supervised-pool";

/** The readiness check's database round trip must answer within this. */
const READY_TIMEOUT_MS = 1_000;

export type Health = { status: number; body: Record<string, string>; retryAfterSeconds?: number };

/** Liveness answers without touching anything; readiness also needs a database round trip within 1 s. */
export async function checkHealth(readiness: boolean): Promise<Health> {
  if (!readiness) return { status: 200, body: { status: "ok" } };
  if (await databaseReady(READY_TIMEOUT_MS)) return { status: 200, body: { status: "ok", database: "ok" } };
  return { status: 503, body: { status: "unavailable", database: "unavailable" }, retryAfterSeconds: RETRY_AFTER_SECONDS };
}
