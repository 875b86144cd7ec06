import "server-only";
import { getDb, type Db } from "@/db/client";

/**
 * For pages: runs a domain read with the database, so nothing under app/ opens it (route
 * handlers and server actions get it from their wrappers, lib/http/route.ts and action.ts).
 */
export async function withDb<T>(read: (db: Db) => Promise<T>): Promise<T> {
  return read(await getDb());
}
