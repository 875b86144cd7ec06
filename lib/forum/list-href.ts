/**
 * A forum list's state as it lives in the page address and the API's query string, so a tab,
 * a filter or a search can be linked, reloaded and shared. Pure, browser-safe and zod-free (the
 * forum's client components import it; lib/forum/list-query.ts adds the parsing).
 */
import type { ForumScope, ForumSort, ForumTopic, LocalRadius } from "./rules";

export type ListQuery = { scope: ForumScope; sort: ForumSort; topic?: ForumTopic; q?: string; radius?: LocalRadius; cursor?: string };

/** The query as the API and the page URLs spell it (no empty values). */
export function listSearchParams(query: ListQuery): URLSearchParams {
  const params = new URLSearchParams({ scope: query.scope, sort: query.sort });
  if (query.topic) params.set("topic", query.topic);
  if (query.q) params.set("q", query.q);
  if (query.radius !== undefined) params.set("radius", String(query.radius));
  if (query.cursor) params.set("cursor", query.cursor);
  return params;
}

/** The page address of a list query (the scope is the path). */
export function forumHref(query: ListQuery): string {
  const params = listSearchParams(query);
  params.delete("scope");
  return `${query.scope === "local" ? "/forum/local" : "/forum"}?${params}`;
}
