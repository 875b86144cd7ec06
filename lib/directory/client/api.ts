/** The browser's call to `GET /api/directory` ('Load more'). */
import "client-only";
import type { DirectoryPage } from "../queries";
import { filterParams, type DirectoryFilters } from "../rules";

export type { DirectoryCard, DirectoryPage } from "../queries";

export async function fetchDirectory(filters: DirectoryFilters, cursor: string): Promise<DirectoryPage> {
  const response = await fetch(`/api/directory?${filterParams(filters, cursor)}`, {
    cache: "no-store",
    headers: { accept: "application/json" },
  });
  const json = (await response.json().catch(() => null)) as (DirectoryPage & { error?: { message?: string } }) | null;
  if (!response.ok || !json) throw new Error(json?.error?.message ?? "Could not load more couples. Please try again.");
  return json;
}
