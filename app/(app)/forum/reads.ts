import "server-only";
import { notFound } from "next/navigation";
import { coupleIdOf } from "@/lib/couples/queries";
import { AppError } from "@/lib/errors";
import { listPosts, loadThread } from "@/lib/forum/queries";
import type { ListQuery } from "@/lib/forum/list-query";
import type { PostPage, Thread } from "@/lib/forum/client/api";
import { PAGE_SIZE_DEFAULT, DEFAULT_LOCAL_RADIUS_KM } from "@/lib/forum/rules";
import { withDb } from "@/lib/with-db";

/**
 * The forum pages' reads: the same domain queries the REST calls answer with, run on the server
 * so a page's first paint has its data. A missing or blocked post is Next's not-found page (404).
 */
export const readViewer = (userId: string) => withDb(async (db) => ({ userId, coupleId: (await coupleIdOf(db, userId)) ?? "" }));

export const readPosts = (userId: string, query: ListQuery): Promise<PostPage> =>
  withDb((db) => listPosts(db, userId, { ...query, radius: query.radius ?? DEFAULT_LOCAL_RADIUS_KM, limit: PAGE_SIZE_DEFAULT }));

/** The local list, or null when the couple has no usable location (the page then says how to set one). */
export async function readLocalPosts(userId: string, query: ListQuery): Promise<PostPage | null> {
  try {
    return await readPosts(userId, query);
  } catch (error) {
    if (error instanceof AppError && error.code === "LOCATION_REQUIRED") return null;
    throw error;
  }
}

export async function readThread(userId: string, postId: string): Promise<Thread> {
  try {
    return await withDb((db) => loadThread(db, userId, postId));
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}
