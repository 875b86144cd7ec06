import "server-only";
import { randomBytes } from "node:crypto";
import { cookies } from "next/headers";
import type { NextResponse } from "next/server";
import { authSecret, isSecureOrigin } from "@/lib/env";
import { cookieValue } from "@/lib/http/cookies";
import { hmac, safeEqual } from "./secrets";

/**
 * OWASP's device cookie ("Slow Down Online Guessing Attacks with Device Cookies"): a browser
 * that signed in to an account gets `nonce.signature`, the signature binding the nonce to that
 * account's e-mail and to the password it signed in with (the sign-in's `credential`,
 * credentials.ts AuthenticatedUser). Its later sign-ins to that account are trusted: strangers'
 * failures, which lock the account for untrusted clients, do not lock it out; its own failures
 * count per device. A password reset or change ends every device's trust, as it ends every
 * session, but the browser that made a change: it proved both passwords, and goes on under a fresh
 * session with a fresh cookie (deviceCookieOn), as a sign-in does. An e-mail change ends it too,
 * the cookie naming the old address, but the confirming browser's: a signed-in browser, it signed
 * in with the current password, and gets a fresh cookie for the new address.
 */
export const deviceCookieName = () => (isSecureOrigin() ? "__Host-device" : "device");
const MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** A sign-in to an account: its e-mail and the digest of the password hash it matched. */
export type DeviceSignIn = { email: string; credential: string };

const signature = (signIn: DeviceSignIn, nonce: string) => hmac(authSecret(), `device:${signIn.email}:${signIn.credential}:${nonce}`);

export function issueDeviceToken(signIn: DeviceSignIn): string {
  const nonce = randomBytes(16).toString("base64url");
  return `${nonce}.${signature(signIn, nonce)}`;
}

/** The device's id (its nonce) when `token` was issued to a sign-in to that account with its current password, else null. */
export function trustedDevice(token: string | null | undefined, signIn: DeviceSignIn): string | null {
  const [nonce, signed, ...rest] = token?.split(".") ?? [];
  if (!nonce || !signed || rest.length > 0) return null;
  return safeEqual(signed, signature(signIn, nonce)) ? nonce : null;
}

/** The device cookie a request carries (Auth.js hands `authorize` the request, cookies included). */
export function deviceTokenOf(headers: Headers): string | null {
  return cookieValue(headers, deviceCookieName());
}

const deviceCookie = (signIn: DeviceSignIn) =>
  [
    deviceCookieName(),
    issueDeviceToken(signIn),
    { httpOnly: true, sameSite: "lax", secure: isSecureOrigin(), path: "/", maxAge: MAX_AGE_SECONDS },
  ] as const;

/** Gives the browser of the current request (a server action's sign-in) a fresh device cookie. */
export async function rememberDevice(signIn: DeviceSignIn): Promise<void> {
  (await cookies()).set(...deviceCookie(signIn));
}

/** `response` giving its browser a fresh device cookie (a REST call's answer, as rememberDevice does for a server action). */
export function deviceCookieOn(response: NextResponse, signIn: DeviceSignIn): NextResponse {
  response.cookies.set(...deviceCookie(signIn));
  return response;
}
