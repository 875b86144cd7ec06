import "server-only";
import { notFound } from "next/navigation";
import { AppError } from "@/lib/errors";
import { listPosts, readThread as loadThread } from "@/lib/forum/queries";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import type { ListQuery } from "@/lib/forum/list-query";
import type { PostPage, Thread } from "@/lib/forum/client/api";
import { DEFAULT_LOCAL_RADIUS_KM, PAGE_SIZE_DEFAULT } from "@/lib/forum/rules";
import { forumIdParamsSchema } from "@/lib/forum/schemas";
import { wholeThread } from "@/lib/forum/whole-thread";
import { withDb } from "@/lib/with-db";

/**
 * The forum pages' reads: the same domain queries the REST calls answer with, run on the server
 * so a page's first paint has its data. A missing or blocked post is Next's not-found page (404).
 */
export const readPosts = (actor: ActingCouple, query: ListQuery): Promise<PostPage> =>
  withDb((db) => listPosts(db, actor, { ...query, radius: query.radius ?? DEFAULT_LOCAL_RADIUS_KM, limit: PAGE_SIZE_DEFAULT }));

/** The local list, or null when the couple has no usable location (the page then says how to set one). */
export async function readLocalPosts(actor: ActingCouple, query: ListQuery): Promise<PostPage | null> {
  try {
    return await readPosts(actor, query);
  } catch (error) {
    if (error instanceof AppError && error.code === "LOCATION_REQUIRED") return null;
    throw error;
  }
}

export async function readThread(actor: ActingCouple, postId: string): Promise<Thread> {
  // A malformed id names no post: the same not-found page, without asking the database.
  if (!forumIdParamsSchema.safeParse({ id: postId }).success) notFound();
  try {
    return await withDb((db) => wholeThread((query) => loadThread(db, actor, postId, query)));
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}
