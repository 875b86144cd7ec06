/**
 * A forum list's state as it lives in the page address and the API's query string, so a tab,
 * a filter or a search can be linked, reloaded and shared. Pure and browser-safe; the zod-free
 * half (the addresses) is lib/forum/list-href.ts, which the client components import.
 */
import { listPostsQuerySchema } from "./schemas";
import type { ListQuery } from "./list-href";
import type { ForumScope, ForumSort, ForumTopic, LocalRadius } from "./rules";

export { forumHref, listSearchParams, type ListQuery } from "./list-href";

/**
 * A page's search params as a list query. An address someone edited by hand (an unknown topic, a
 * sort this forum lacks) falls back to the defaults rather than an error page.
 */
export function pageListQuery(scope: ForumScope, params: Record<string, string | string[] | undefined>): ListQuery {
  const one = (key: string) => {
    const value = params[key];
    return Array.isArray(value) ? value[0] : value;
  };
  const raw = {
    scope,
    sort: one("sort") ?? (scope === "local" ? "nearest" : "latest"),
    topic: one("topic"),
    q: one("q"),
    radius: one("radius"),
  };
  const parsed = listPostsQuerySchema.safeParse(raw);
  if (parsed.success) return pick(parsed.data);
  // Keep what is valid field by field: drop only the fields that were refused.
  const refused = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
  const kept = Object.fromEntries(Object.entries(raw).filter(([key]) => !refused.has(key)));
  const retry = listPostsQuerySchema.safeParse({
    ...kept,
    sort: refused.has("sort") ? (scope === "local" ? "nearest" : "latest") : kept.sort,
  });
  return retry.success
    ? pick(retry.data)
    : { scope, sort: scope === "local" ? "nearest" : "latest", radius: scope === "local" ? 50 : undefined };
}

function pick(data: { scope: ForumScope; sort: ForumSort; topic?: ForumTopic; q?: string; radius: number }): ListQuery {
  return {
    scope: data.scope,
    sort: data.sort,
    topic: data.topic,
    q: data.q || undefined,
    // The radius means something only in the local forum.
    radius: data.scope === "local" ? (data.radius as LocalRadius) : undefined,
  };
}
