import "server-only";
import type { NextRequest } from "next/server";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { notAllowedMessage, oneLine } from "@/lib/fields";
import { getDb, type Db } from "@/db/client";
import {
  assertAccess,
  completeAccountCouple,
  NOTHING_GRANTED,
  type Access,
  type CallerFor,
  type CoupleFor,
  type ModeratorFor,
} from "./access";
import { sessionWithAccount } from "@/lib/auth/users";
import { assertUnderLimits, type Limit } from "@/lib/rate-limit";
import { errorResponse, JSON_BODY_BYTES, parseWith, readJson } from "./errors";
import type { SessionRead } from "@/lib/auth/sessions";
import { clientAddress } from "./client-address";
import { liveCaller, sessionUserOnly, type Caller } from "./request-auth";

/** The caller a route handler gets: never null where the access requires a session. */
export type RouteCaller<A extends Access> = CallerFor<A, Caller>;

/**
 * Reads and validates a request's input; failures throw the spec's VALIDATION_ERROR. `schema`
 * is what it parses, when it is one zod schema (read by the route fuzz test).
 */
export type InputReader<I> = ((request: NextRequest) => Promise<I>) & { schema?: z.ZodType };

type ParseMessage = Parameters<typeof parseWith>[2];

/**
 * The JSON body, parsed with a domain schema (`message` as for parseWith), refused with 413 past
 * `maxBytes` before a byte of it is parsed: JSON_BODY_BYTES, unless the call's longest valid
 * input needs more (then its area names the size, beside the text limits it follows from).
 */
export const jsonBody = <S extends z.ZodType>(
  schema: S,
  message?: ParseMessage,
  { maxBytes = JSON_BODY_BYTES }: { maxBytes?: number } = {},
): InputReader<z.output<S>> =>
  Object.assign(async (request: NextRequest) => parseWith(schema, await readJson(request, maxBytes), message), { schema });

/** The query string, parsed with a domain schema (`message` as for parseWith). */
export const searchParams = <S extends z.ZodType>(schema: S, message?: ParseMessage): InputReader<z.output<S>> =>
  Object.assign(async (request: NextRequest) => parseWith(schema, Object.fromEntries(request.nextUrl.searchParams), message), { schema });

/** Route params that are plain strings (`[id]`, `[token]`): the domain decides what a bad one means. */
export const stringParams = <K extends string>(...names: K[]) =>
  z.object(Object.fromEntries(names.map((name) => [name, oneLine(z.string(), notAllowedMessage(name))])) as Record<K, z.ZodString>);

export type RouteContext<A extends Access, I, P, L = undefined> = {
  db: Db;
  caller: RouteCaller<A>;
  /** The caller's acting couple, read with the session: every `complete-profile` handler has one. */
  couple: CoupleFor<A>;
  /** The moderator calling, with their own couple: every `moderator` and `admin` handler has one. */
  moderator: ModeratorFor<A>;
  /** What the route's `session` read took along with the session (null where there is no caller). */
  live: CallerFor<A, L>;
  input: I;
  params: P;
  request: NextRequest;
  /** The caller's address as the deployment vouches for it, for per-address limits (lib/http/client-address.ts). */
  clientAddress: string;
};

export type RouteOptions<A extends Access, I, P, L = undefined> = {
  access: A;
  /**
   * How the caller's session is read, in one round trip (lib/auth/sessions.ts `SessionRead`):
   * by default its user, with the account (flags and acting couple) for `complete-profile`; a route may read what
   * it answers in the same statement instead (the current user, the forum's global list, the inbox, a thread).
   */
  session?: SessionRead<L, I, P>;
  /** The request's input: `jsonBody(...)`, `searchParams(...)`, or a custom reader (multipart). */
  input?: InputReader<I>;
  /** The route params' schema; failures are a VALIDATION_ERROR like any input (`message` as for parseWith). */
  params?: z.ZodType<P>;
  paramsMessage?: ParseMessage;
  /**
   * The caller's own limits (subject: their user id) that the call spends in its domain: checked,
   * not spent, once the caller is known and before the body is read, so a caller over a limit
   * costs no read and no parse of what they sent.
   */
  limits?: readonly Limit[];
};

export type RouteDeclaration = { access: Access; input?: z.ZodType; params?: z.ZodType };
export type RouteHandler = (request: NextRequest, context: { params: Promise<unknown> }) => Promise<Response>;

/** The session read of a route that declares none: the account where the access checks it, else the user alone. */
const defaultRead = (access: Access): SessionRead<undefined> => (access === "complete-profile" ? sessionWithAccount : sessionUserOnly);

/**
 * The caller, checked as the access asks, with their acting couple or the moderator where the
 * access needs one: null for `public` (no credential is read) and for a signed-out `optional` call.
 */
async function callerFor<L, I, P>(
  access: Access,
  db: Db,
  request: NextRequest,
  read: SessionRead<L, I, P>,
  parsed: { input: () => Promise<I | null>; params: () => Promise<P | null> },
) {
  if (access === "public") return null;
  const found = await liveCaller(db, request, read, parsed.input, parsed.params);
  if (!found) {
    if (access === "optional") return null;
    throw new AppError("UNAUTHENTICATED", "Not authenticated");
  }
  const granted =
    access === "complete-profile" && found.account
      ? { couple: completeAccountCouple(found.account), moderator: null }
      : access === "optional"
        ? NOTHING_GRANTED
        : await assertAccess(db, access, found.caller.userId);
  return { ...found, ...granted };
}

type Parsed<I, P> = { ok: true; input: I; params: P } | { ok: false; error: unknown };

async function parseRequest<A extends Access, I, P, L>(
  options: RouteOptions<A, I, P, L>,
  request: NextRequest,
  context: { params: Promise<unknown> },
): Promise<Parsed<I, P>> {
  try {
    const rawParams = await context.params;
    const params = (options.params ? parseWith(options.params, rawParams, options.paramsMessage) : rawParams) as P;
    const input = (options.input ? await options.input(request) : undefined) as I;
    return { ok: true, input, params };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The methods that read: Next.js answers HEAD with the GET handler. */
const READS = new Set(["GET", "HEAD"]);

/**
 * A read made with the caller's session is theirs alone: unless its handler says how it may be
 * kept (a conversation's photo, a live stream), no cache keeps it, a browser's disk cache
 * included, so a shared computer holds no profile, place or message of the last person after
 * they sign out (Next.js sends a dynamic route's answer with no Cache-Control at all).
 */
function keptByNoCache(response: Response): Response {
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "private, no-store");
  return response;
}

/**
 * Declares a route handler: who may call it and what input it takes. The wrapper opens the
 * database, checks the caller (with the route's `session` read) and the caller's declared limits,
 * then parses the params and the input, so a signed-out call is 401 whatever it sent and nothing
 * it sent is read before its session and its limits are checked (unless the session read asks for the input: then a bad input is still
 * answered only after the session check). Every thrown error becomes the JSON error shape with
 * its status, so no handler can answer a stack trace. The returned handler carries its
 * declaration (`declared`, not enumerable) so tests can build inputs from its schemas.
 */
export function route<A extends Access, I = undefined, P = Record<string, never>, L = undefined>(
  options: RouteOptions<A, I, P, L>,
  handler: (context: RouteContext<A, I, P, L>) => Promise<Response>,
): RouteHandler {
  const read = (options.session ?? defaultRead(options.access)) as SessionRead<L, I, P>;
  const handle: RouteHandler = async (request, context) => {
    try {
      const db = await getDb();
      // Parsed once, when the session read asks for the input or after the caller is checked.
      let parsing: Promise<Parsed<I, P>> | undefined;
      const parse = () => (parsing ??= parseRequest(options, request, context));
      const found = await callerFor(options.access, db, request, read, {
        input: async () => {
          const parsed = await parse();
          return parsed.ok ? parsed.input : null;
        },
        params: async () => {
          const parsed = await parse();
          return parsed.ok ? parsed.params : null;
        },
      });
      if (found && options.limits) await assertUnderLimits(db, options.limits, found.caller.userId);
      const parsed = await parse();
      if (!parsed.ok) throw parsed.error;
      const caller = (found?.caller ?? null) as RouteCaller<A>;
      const couple = (found?.couple ?? null) as CoupleFor<A>;
      const moderator = (found?.moderator ?? null) as ModeratorFor<A>;
      const live = (found ? found.value : null) as CallerFor<A, L>;
      const response = await handler({
        db,
        caller,
        couple,
        moderator,
        live,
        input: parsed.input,
        params: parsed.params,
        request,
        clientAddress: clientAddress(request.headers),
      });
      return options.access === "public" || !READS.has(request.method) ? response : keptByNoCache(response);
    } catch (error) {
      return errorResponse(error);
    }
  };
  const declared: RouteDeclaration = { access: options.access, input: options.input?.schema, params: options.params };
  return Object.defineProperty(handle, "declared", { value: declared, enumerable: false });
}
