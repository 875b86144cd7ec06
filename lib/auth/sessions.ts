import "server-only";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { sessions } from "@/db/schema";

import { BROWSER_SESSION_SECONDS } from "./session-token";

export const API_SESSION_SECONDS = 30 * 24 * 60 * 60;

export async function createSession(db: Db, userId: string, kind: "browser" | "api"): Promise<string> {
  const seconds = kind === "browser" ? BROWSER_SESSION_SECONDS : API_SESSION_SECONDS;
  const [row] = await db
    .insert(sessions)
    .values({ userId, kind, expiresAt: new Date(Date.now() + seconds * 1000) })
    .returning({ id: sessions.id });
  return row!.id;
}

/** The user id of a live session, or null when it was revoked, expired or never existed. */
export async function activeSessionUser(db: Db, sessionId: string): Promise<string | null> {
  const [row] = await db
    .select({ userId: sessions.userId })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())));
  return row?.userId ?? null;
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Ends every session of the user, browser and API alike (after a password reset). */
export async function revokeAllSessions(db: Db, userId: string): Promise<void> {
  await db.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}
