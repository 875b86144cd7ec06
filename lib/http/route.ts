import "server-only";
import type { NextRequest } from "next/server";
import { z } from "zod";
import { getDb, type Db } from "@/db/client";
import { assertAccess, type Access, type CallerFor } from "./access";
import { errorResponse, parseWith, readJson } from "./errors";
import { optionalCaller, requireCaller, type Caller } from "./request-auth";

/** The caller a route handler gets: never null where the access requires a session. */
export type RouteCaller<A extends Access> = CallerFor<A, Caller>;

/** Reads and validates a request's input; failures throw the spec's VALIDATION_ERROR. */
export type InputReader<I> = (request: NextRequest) => Promise<I>;

type ParseMessage = Parameters<typeof parseWith>[2];

/** The JSON body, parsed with a domain schema (`message` as for parseWith). */
export const jsonBody =
  <S extends z.ZodType>(schema: S, message?: ParseMessage): InputReader<z.output<S>> =>
  async (request) =>
    parseWith(schema, await readJson(request), message);

/** The query string, parsed with a domain schema (`message` as for parseWith). */
export const searchParams =
  <S extends z.ZodType>(schema: S, message?: ParseMessage): InputReader<z.output<S>> =>
  async (request) =>
    parseWith(schema, Object.fromEntries(request.nextUrl.searchParams), message);

/** Route params that are plain strings (`[id]`, `[token]`): the domain decides what a bad one means. */
export const stringParams = <K extends string>(...names: K[]) =>
  z.object(Object.fromEntries(names.map((name) => [name, z.string()])) as Record<K, z.ZodString>);

export type RouteContext<A extends Access, I, P> = {
  db: Db;
  caller: RouteCaller<A>;
  input: I;
  params: P;
  request: NextRequest;
};

export type RouteOptions<A extends Access, I, P> = {
  access: A;
  /** The request's input: `jsonBody(...)`, `searchParams(...)`, or a custom reader (multipart). */
  input?: InputReader<I>;
  /** The route params' schema; failures are a VALIDATION_ERROR like any input (`message` as for parseWith). */
  params?: z.ZodType<P>;
  paramsMessage?: ParseMessage;
};

async function callerFor(access: Access, db: Db, request: NextRequest): Promise<Caller | null> {
  if (access === "public") return null;
  if (access === "optional") return optionalCaller(db, request);
  const caller = await requireCaller(db, request);
  await assertAccess(db, access, caller.userId);
  return caller;
}

/**
 * Declares a route handler: who may call it and what input it takes. The wrapper opens the
 * database, checks the caller, then parses the params and the input (in that order, so a
 * signed-out call is 401 whatever it sent), and turns every thrown error into the JSON error
 * shape with its status, so no handler can answer a stack trace.
 */
export function route<A extends Access, I = undefined, P = Record<string, never>>(
  options: RouteOptions<A, I, P>,
  handler: (context: RouteContext<A, I, P>) => Promise<Response>,
): (request: NextRequest, context: { params: Promise<unknown> }) => Promise<Response> {
  return async (request, context) => {
    try {
      const db = await getDb();
      const caller = (await callerFor(options.access, db, request)) as RouteCaller<A>;
      const rawParams = await context.params;
      const params = (options.params ? parseWith(options.params, rawParams, options.paramsMessage) : rawParams) as P;
      const input = (options.input ? await options.input(request) : undefined) as I;
      return await handler({ db, caller, input, params, request });
    } catch (error) {
      return errorResponse(error);
    }
  };
}
