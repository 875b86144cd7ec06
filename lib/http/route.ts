import "server-only";
import type { NextRequest } from "next/server";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { notAllowedMessage, oneLine } from "@/lib/fields";
import { getDb, type Db } from "@/db/client";
import { assertAccess, assertCompleteFlags, type Access, type CallerFor } from "./access";
import { sessionWithFlags } from "@/lib/auth/users";
import { errorResponse, parseWith, readJson } from "./errors";
import type { SessionRead } from "@/lib/auth/sessions";
import { liveCaller, sessionUserOnly, type Caller } from "./request-auth";

/** The caller a route handler gets: never null where the access requires a session. */
export type RouteCaller<A extends Access> = CallerFor<A, Caller>;

/**
 * Reads and validates a request's input; failures throw the spec's VALIDATION_ERROR. `schema`
 * is what it parses, when it is one zod schema (read by the route fuzz test).
 */
export type InputReader<I> = ((request: NextRequest) => Promise<I>) & { schema?: z.ZodType };

type ParseMessage = Parameters<typeof parseWith>[2];

/** The JSON body, parsed with a domain schema (`message` as for parseWith). */
export const jsonBody = <S extends z.ZodType>(schema: S, message?: ParseMessage): InputReader<z.output<S>> =>
  Object.assign(async (request: NextRequest) => parseWith(schema, await readJson(request), message), { schema });

/** The query string, parsed with a domain schema (`message` as for parseWith). */
export const searchParams = <S extends z.ZodType>(schema: S, message?: ParseMessage): InputReader<z.output<S>> =>
  Object.assign(async (request: NextRequest) => parseWith(schema, Object.fromEntries(request.nextUrl.searchParams), message), { schema });

/** Route params that are plain strings (`[id]`, `[token]`): the domain decides what a bad one means. */
export const stringParams = <K extends string>(...names: K[]) =>
  z.object(Object.fromEntries(names.map((name) => [name, oneLine(z.string(), notAllowedMessage(name))])) as Record<K, z.ZodString>);

export type RouteContext<A extends Access, I, P, L = undefined> = {
  db: Db;
  caller: RouteCaller<A>;
  /** What `withSession` read along with the session (null where there is no caller). */
  live: CallerFor<A, L>;
  input: I;
  params: P;
  request: NextRequest;
};

export type RouteOptions<A extends Access, I, P, L = undefined> = {
  access: A;
  /**
   * Reads the session row together with what the handler needs, in one round trip, instead of
   * the plain liveness check (the current user's call: every signed-in client asks it).
   */
  withSession?: SessionRead<L>;
  /** The request's input: `jsonBody(...)`, `searchParams(...)`, or a custom reader (multipart). */
  input?: InputReader<I>;
  /** The route params' schema; failures are a VALIDATION_ERROR like any input (`message` as for parseWith). */
  params?: z.ZodType<P>;
  paramsMessage?: ParseMessage;
};

export type RouteDeclaration = { access: Access; input?: z.ZodType; params?: z.ZodType };
export type RouteHandler = (request: NextRequest, context: { params: Promise<unknown> }) => Promise<Response>;

async function callerFor<L>(access: Access, db: Db, request: NextRequest, read: SessionRead<L>): Promise<{ caller: Caller; value: L } | null> {
  if (access === "public") return null;
  if (access === "complete-profile" && read === sessionUserOnly) {
    // The profile check rides on the session's round trip (the fixed cost of most calls).
    const live = await liveCaller(db, request, sessionWithFlags);
    if (!live) throw new AppError("UNAUTHENTICATED", "Not authenticated");
    assertCompleteFlags(live.value);
    return { caller: live.caller, value: undefined as L };
  }
  const found = await liveCaller(db, request, read);
  if (access === "optional") return found;
  if (!found) throw new AppError("UNAUTHENTICATED", "Not authenticated");
  await assertAccess(db, access, found.caller.userId);
  return found;
}

/**
 * Declares a route handler: who may call it and what input it takes. The wrapper opens the
 * database, checks the caller, then parses the params and the input (in that order, so a
 * signed-out call is 401 whatever it sent), and turns every thrown error into the JSON error
 * shape with its status, so no handler can answer a stack trace. The returned handler carries
 * its declaration (`declared`, not enumerable) so tests can build inputs from its schemas.
 */
export function route<A extends Access, I = undefined, P = Record<string, never>, L = undefined>(
  options: RouteOptions<A, I, P, L>,
  handler: (context: RouteContext<A, I, P, L>) => Promise<Response>,
): RouteHandler {
  const read = (options.withSession ?? sessionUserOnly) as SessionRead<L>;
  const handle: RouteHandler = async (request, context) => {
    try {
      const db = await getDb();
      const found = await callerFor(options.access, db, request, read);
      const caller = (found?.caller ?? null) as RouteCaller<A>;
      const live = (found ? found.value : null) as CallerFor<A, L>;
      const rawParams = await context.params;
      const params = (options.params ? parseWith(options.params, rawParams, options.paramsMessage) : rawParams) as P;
      const input = (options.input ? await options.input(request) : undefined) as I;
      return await handler({ db, caller, live, input, params, request });
    } catch (error) {
      return errorResponse(error);
    }
  };
  const declared: RouteDeclaration = { access: options.access, input: options.input?.schema, params: options.params };
  return Object.defineProperty(handle, "declared", { value: declared, enumerable: false });
}
