import { and, eq, sql } from "drizzle-orm";
import { POST as register } from "@/app/api/auth/register/route";
import { POST as token } from "@/app/api/auth/token/route";
import { GET as me } from "@/app/api/v2/auth/me/route";
import { GET as outbox } from "@/app/api/dev/outbox/route";
import { getDb } from "@/db/client";
import { rateLimitHits, refreshTokens, users } from "@/db/schema";
import { hashToken } from "@/lib/auth/secrets";
import { FROM_LOOPBACK, PASSWORD, call } from "./api";

let registrationCounter = 0;

/** Registers through the API, as the register page does; returns the new account's row. */
export async function registerViaApi(email = `reg${++registrationCounter}-${Date.now()}@example.com`, password = "Str0ng!Passw0rd") {
  const res = await call(register, "POST", "/api/auth/register", {
    body: { email, password, firstName: "Marisol", lastName: "Okafor", dateOfBirth: "1992-03-04" },
  });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.json)}`);
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  return { user: user!, password };
}

/** The newest e-mail to an address, read through the dev outbox endpoint. */
export async function latestMail(to: string) {
  const res = await call(outbox, "GET", `/api/dev/outbox?to=${encodeURIComponent(to)}`, { headers: FROM_LOOPBACK });
  const message = res.json.messages[0] as { to: string; subject: string; text: string; html: string; createdAt: string } | undefined;
  if (!message) throw new Error(`no e-mail to ${to}`);
  return message;
}

/** The first link of the newest e-mail to an address. */
export async function linkInLatestMail(to: string): Promise<URL> {
  const message = await latestMail(to);
  const match = /https?:\/\/\S+/.exec(message.text);
  if (!match) throw new Error(`no link in the e-mail to ${to}`);
  return new URL(match[0]);
}

/** Pretends the rate-limit hits of a subject (all buckets unless named) happened `seconds` earlier. */
export async function ageRateLimitHits(subject: string, seconds: number, bucket?: string) {
  const db = await getDb();
  await db
    .update(rateLimitHits)
    .set({ createdAt: sql`${rateLimitHits.createdAt} - make_interval(secs => ${seconds})` })
    .where(bucket ? and(eq(rateLimitHits.subject, subject), eq(rateLimitHits.bucket, bucket)) : eq(rateLimitHits.subject, subject));
}

/** POST /api/auth/token with the password grant. */
export const passwordGrant = (email: string, password = PASSWORD, headers: Record<string, string> = {}) =>
  call(token, "POST", "/api/auth/token", { body: { grant_type: "password", email, password }, headers });

/** POST /api/auth/token with the refresh-token grant. */
export const refreshGrant = (refreshToken: string) =>
  call(token, "POST", "/api/auth/token", { body: { grant_type: "refresh_token", refresh_token: refreshToken } });

/** A signed-in API client for the user: the token endpoint's session. */
export async function apiSession(email: string, password = PASSWORD) {
  const res = await passwordGrant(email, password);
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json as {
    access_token: string;
    refresh_token: string;
    expires_at: number;
    user: { id: string; email: string; email_confirmed_at: string | null };
  };
}

export const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

/** /me's status for an access token; 409 (a user without a couple) still proves the token was accepted. */
export const meStatus = async (accessToken: string) => (await call(me, "GET", "/api/v2/auth/me", { headers: bearer(accessToken) })).status;
export const accepted = (status: number) => status === 200 || status === 409;

/** The session a refresh token belongs to. */
export async function sessionOf(refreshToken: string): Promise<string> {
  const db = await getDb();
  const [row] = await db
    .select({ sessionId: refreshTokens.sessionId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(refreshToken)));
  return row!.sessionId;
}
