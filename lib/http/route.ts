import "server-only";
import type { NextRequest } from "next/server";
import { getDb, type Db } from "@/db/client";
import { errorResponse } from "./errors";

type RouteContext<P> = { params: Promise<P> };

/**
 * Wraps a route handler: hands it the database, and turns every thrown error into the JSON
 * error shape with its status, so no handler can answer a stack trace.
 */
export function apiRoute<P = Record<string, never>>(
  handler: (request: NextRequest, db: Db, params: P) => Promise<Response>,
): (request: NextRequest, context: RouteContext<P>) => Promise<Response> {
  return async (request, context) => {
    try {
      const db = await getDb();
      return await handler(request, db, await context.params);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
