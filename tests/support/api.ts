import { encode } from "next-auth/jwt";
import { NextRequest } from "next/server";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import { sessionCookieName } from "@/lib/auth/session-token";
import { createSession, revokeSession } from "@/lib/auth/sessions";
import { csrfTokenFor } from "@/lib/http/request-auth";

type Handler = (request: NextRequest, context: { params: Promise<never> }) => Promise<Response>;

let addressCounter = 0;
/** A distinct client address per call, so per-address limits only bite where a test wants them to. */
export const freshAddress = () => `203.0.113.${++addressCounter % 250}-${Date.now()}`;

/**
 * Headers a client may write to pass for another address (lib/http/client-address.ts reads only what
 * the deployment vouches for): a per-person limit must not move to another bucket for any of them.
 */
export const FORGED_ADDRESS_HEADERS: Record<string, string>[] = [
  { "x-forwarded-for": "198.51.100.7" },
  { "x-vercel-forwarded-for": "198.51.100.8" },
  { "x-real-ip": "198.51.100.9", forwarded: "for=198.51.100.10" },
];

/** What the app's server writes for a caller on this machine (the dev outbox answers only those). */
export const FROM_LOOPBACK = { "x-forwarded-for": "127.0.0.1" };

export type CallOptions = { body?: unknown; rawBody?: string; headers?: Record<string, string>; params?: Record<string, string> };

/** Calls a route handler the way Next.js would, and reads its JSON answer. */
export async function call(handler: Handler, method: string, path: string, options: CallOptions = {}) {
  const headers = new Headers({ "x-forwarded-for": freshAddress(), ...options.headers });
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  // Sent as JSON, as the app's transport sends it, unless the test says otherwise.
  if (body !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
  const request = new NextRequest(new URL(path, "http://localhost:3000"), { method, headers, body });
  const response = await handler(request, { params: Promise.resolve((options.params ?? {}) as never) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : null };
}

let userCounter = 0;
export const PASSWORD = "Correct-Horse7!";

/** A user straight in the database (verified unless told otherwise). */
export async function createUser(overrides: Partial<typeof users.$inferInsert> = {}) {
  const db = await getDb();
  const [user] = await db
    .insert(users)
    .values({
      email: `user${++userCounter}-${Date.now()}@example.com`,
      passwordHash: await hashPassword(PASSWORD),
      firstName: "Ada",
      lastName: "Lovelace",
      dateOfBirth: "1990-05-17",
      emailVerifiedAt: new Date(),
      ...overrides,
    })
    .returning();
  return user!;
}

/** A browser session for the user: its cookie header and its CSRF token. */
export async function browserSession(userId: string) {
  const db = await getDb();
  const sid = await createSession(db, userId, "browser");
  const name = sessionCookieName();
  const token = await encode({
    token: { sub: userId, sid, emailVerified: true, profileComplete: false, isPartnerB: false },
    secret: process.env.AUTH_SECRET!,
    salt: name,
  });
  return { sid, cookie: `${name}=${token}`, csrf: csrfTokenFor(sid) };
}

/** The cookie of a session of the user's that has been revoked: a dead session. */
export async function revokedSessionCookie(userId: string) {
  const session = await browserSession(userId);
  await revokeSession(await getDb(), session.sid);
  return { cookie: session.cookie };
}
