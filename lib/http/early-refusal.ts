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
 * that starts with "$"), undefined, NaN, the infinities, -0, a date, a bigint (React refuses one
 * past 300 characters), a temporary reference. With "$0:..." (an object the arguments hold twice,
 * named by its path in them) these are all a browser sends in a body of one JSON text.
 */
const SELF_CONTAINED = /^\$(?:\$|D|n(?:-\d{1,299}|\d{1,300})$|T$|undefined$|NaN$|-?Infinity$|-0$)/;

/** Whether "$n:a:b" names a value `part` holds at that path (React walks it, and throws where it ends). */
function pathHeld(part: unknown, reference: string): boolean {
  let value = part;
  for (const key of reference.split(":").slice(1)) {
    if (!value || typeof value !== "object" || !Object.hasOwn(value, key)) return false;
    value = (value as Record<string, unknown>)[key];
  }
  return true;
}

/** The parts of a multipart reply a "$" string may name (React's encodeReply): none in a text body. */
type Parts = { get: (key: string) => FormDataEntryValue | null };
const NO_PARTS: Parts = { get: () => null };

/** "$1" or "$1:a:b" (an object of its own part), "$Q1"/"$W1"/"$i1" (a Map, a Set, an iterator: a list part). */
const MODEL_PART = /^\$([QWi]?)([0-9a-f]{1,8})(?::|$)/;
/** "$B1" (a file), "$A1"..."$V1" (typed arrays): a file part, read once. */
const FILE_PART = /^\$[BAOoUSsLlGgMmV]([0-9a-f]{1,8})$/;
/** "$K1": a FormData's fields, named "1_..." (none is an empty FormData, which React reads). */
const FORM_DATA = /^\$K[0-9a-f]{1,8}$/;

/**
 * Whether every string of the reply names only what React reads without failing: a self-contained
 * value, or a part that was sent, of the kind the reference needs (a queue over the parts, each
 * parsed once: not recursion, any depth). Anything else (a promise, a stream, a server reference,
 * a part never sent, a Map's part read twice) React answers with an error, Next with a 500.
 */
function referencesReadable(root: unknown, parts: Parts): boolean {
  const parsed = new Map<string, unknown>([["0", root]]);
  const consumed = new Set<string>();
  const pending: unknown[] = [root];
  const partJson = (key: string): { value: unknown } | null => {
    if (parsed.has(key)) return { value: parsed.get(key) };
    const text = parts.get(key);
    if (typeof text !== "string") return null;
    try {
      const value: unknown = JSON.parse(text);
      parsed.set(key, value);
      pending.push(value);
      return { value };
    } catch {
      return null;
    }
  };
  const readable = (item: string): boolean => {
    if (SELF_CONTAINED.test(item)) return true;
    if (FORM_DATA.test(item)) return parts !== NO_PARTS; // a browser sends a FormData as multipart only
    const file = FILE_PART.exec(item);
    if (file) {
      const key = String(parseInt(file[1]!, 16));
      if (consumed.has(key)) return false;
      consumed.add(key);
      return parts.get(key) instanceof Blob;
    }
    const model = MODEL_PART.exec(item);
    if (!model) return false;
    const key = String(parseInt(model[2]!, 16));
    const part = partJson(key);
    if (!part || !pathHeld(part.value, item)) return false;
    if (model[1] === "") return true;
    if (consumed.has(key) || !Array.isArray(part.value)) return false;
    consumed.add(key);
    return true;
  };
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") {
      if (item.startsWith("$") && !readable(item)) return false;
    } else if (item && typeof item === "object") for (const child of Object.values(item)) pending.push(child); // no spread: a list may be long
  }
  return true;
}

/** Whether a reply's root (the body, or a multipart body's part "0") is a list of arguments React reads. */
function readableArguments(rootText: string, parts: Parts): boolean {
  try {
    const args: unknown = JSON.parse(rootText);
    return Array.isArray(args) && referencesReadable(args, parts);
  } catch {
    return false;
  }
}

/**
 * A server action's body that Next could not decode, which it answers with 500 before any action
 * runs (its action handler makes every error a 500): past its 1 MB limit (413), a multipart body
 * that does not parse or whose arguments name parts it lacks, or a text body that is not UTF-8
 * JSON of a list of arguments the browser's encoder could have sent (referencesReadable). Null for
 * anything a form of this app sends. A multipart body without part "0" is a form posted before the
 * page's script ran (Next reads its action from the fields): let through.
 */
export async function serverActionBodyRefusal(contentType: string, body: Uint8Array<ArrayBuffer>): Promise<Refusal | null> {
  if (body.byteLength > SERVER_ACTION_BODY_BYTES)
    return { status: 413, code: "PAYLOAD_TOO_LARGE", message: "The request body must be 1 MB or smaller." };
  if (/^multipart\/form-data\s*;/i.test(contentType)) {
    let form: FormData;
    try {
      form = await new Response(body, { headers: { "content-type": contentType } }).formData();
    } catch {
      return unreadableAction;
    }
    const root = form.get("0");
    if (root === null) return null;
    return typeof root === "string" && readableArguments(root, form) ? null : unreadableAction;
  }
  try {
    return readableArguments(new TextDecoder("utf-8", { fatal: true }).decode(body), NO_PARTS) ? null : unreadableAction;
  } catch {
    return unreadableAction;
  }
}

/** What a refusal answers, as the API's errors are shaped. */
export const refusalBody = (refusal: Refusal) => ({ error: { code: refusal.code, message: refusal.message } });
