/**
 * Requests middleware.ts refuses before Next.js routes them, each of which Next would otherwise
 * answer with a 500. Pure and Edge-safe.
 */
export type Refusal = { status: 400 | 403 | 413; code: "VALIDATION_ERROR" | "FORBIDDEN" | "PAYLOAD_TOO_LARGE"; message: string };

/**
 * A path whose percent-encoding does not decode (`/profile/%ff`): Next's route matcher throws
 * while decoding a dynamic segment, before any handler or page runs.
 */
export function isMalformedPath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

/** The host a request was sent to, as Next's server-action check reads it: X-Forwarded-Host first, else Host. */
const requestHost = (headers: Headers) => headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host");

/**
 * A POST to a page (only server actions accept one) from another site's page. Next refuses
 * such a server action itself, but by throwing, which answers 500; an `Origin` that is
 * "null" or unreadable is another site too. Without `Origin` (no browser sends a cross-site
 * POST without it) Next's own rule applies.
 */
export function isCrossSitePagePost(method: string, headers: Headers): boolean {
  const origin = headers.get("origin");
  if (method !== "POST" || origin === null) return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  return originHost === "" || originHost !== requestHost(headers);
}

/** What to answer instead of routing the request, or null to route it. `pathname` as sent (still encoded). */
export function earlyRefusal(method: string, pathname: string, headers: Headers): Refusal | null {
  if (isMalformedPath(pathname)) return { status: 400, code: "VALIDATION_ERROR", message: "The address is not valid." };
  if (!pathname.startsWith("/api/") && isCrossSitePagePost(method, headers)) {
    return { status: 403, code: "FORBIDDEN", message: "Cross-site requests are not allowed." };
  }
  return null;
}

/** Next's limit on a server action's body (next.config.ts sets none): past it, Next answers 500. */
export const SERVER_ACTION_BODY_BYTES = 1024 * 1024;

const unreadableAction: Refusal = { status: 400, code: "VALIDATION_ERROR", message: "The form could not be read. Please try again." };

/**
 * The strings React's reply decoder reads without another part of the request: "$$..." (a string
 * that starts with "$"), undefined, NaN, the infinities, -0, a date, a bigint, a temporary
 * reference, and "$0:..." (an object the arguments hold twice, named by its path in them). In a
 * body of one JSON text (no multipart) these are all the browser sends; any other "$" string
 * names a part that is not there (or, "$n", a bigint that is none), which Next answers 500.
 */
const SELF_CONTAINED = /^\$(?:\$|D|0(?::|$)|n-?\d+$|T$|undefined$|NaN$|-?Infinity$|-0$)/;

/** Whether "$0:a:b" names a value the arguments hold at that path (React walks it, and throws where it ends). */
function pathHeld(root: unknown, reference: string): boolean {
  let value = root;
  for (const key of reference.split(":").slice(1)) {
    if (!value || typeof value !== "object" || !Object.hasOwn(value, key)) return false;
    value = (value as Record<string, unknown>)[key];
  }
  return true;
}

/** Whether every string in the JSON value is one React reads on its own (a queue, not recursion: any depth). */
function selfContained(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") {
      if (item.startsWith("$") && (!SELF_CONTAINED.test(item) || (item.startsWith("$0") && !pathHeld(root, item)))) return false;
    } else if (item && typeof item === "object") for (const child of Object.values(item)) pending.push(child); // no spread: a list may be long
  }
  return true;
}

/**
 * A server action's body that Next could not decode, which it answers with 500 before any action
 * runs (its action handler makes every error a 500): past its 1 MB limit (413), a multipart body
 * that does not parse, or a text body that is not UTF-8 JSON of a list of arguments the browser's
 * encoder could have sent (selfContained). Null for anything a form of this app sends.
 */
export async function serverActionBodyRefusal(contentType: string, body: Uint8Array<ArrayBuffer>): Promise<Refusal | null> {
  if (body.byteLength > SERVER_ACTION_BODY_BYTES)
    return { status: 413, code: "PAYLOAD_TOO_LARGE", message: "The request body must be 1 MB or smaller." };
  if (/^multipart\/form-data\s*;/i.test(contentType)) {
    try {
      await new Response(body, { headers: { "content-type": contentType } }).formData();
      return null;
    } catch {
      return unreadableAction;
    }
  }
  try {
    const args: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
    return Array.isArray(args) && selfContained(args) ? null : unreadableAction;
  } catch {
    return unreadableAction;
  }
}

/** What a refusal answers, as the API's errors are shaped. */
export const refusalBody = (refusal: Refusal) => ({ error: { code: refusal.code, message: refusal.message } });
