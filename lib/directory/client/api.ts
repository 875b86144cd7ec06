/** The browser's calls to `GET /api/directory` ('Load more'), its count and its map, through the transport (lib/transport/client.ts). */
import "client-only";
import { api } from "@/lib/transport/client";
import type { DirectoryMapAnswer, DirectoryPage } from "../queries";
import { filterParams, type DirectoryFilters } from "../rules";

export type { DirectoryCard, DirectoryMapAnswer, DirectoryPage, MapCard } from "../queries";

export const fetchDirectory = (filters: DirectoryFilters, cursor: string) =>
  api<DirectoryPage>(`/api/directory?${filterParams(filters, cursor)}`);

export const fetchDirectoryCount = (filters: DirectoryFilters, signal?: AbortSignal) =>
  api<{ data: { count: number; more: boolean } }>(`/api/directory/count?${filterParams(filters)}`, { signal });

export const fetchDirectoryMap = (filters: DirectoryFilters) => api<DirectoryMapAnswer>(`/api/directory/map?${filterParams(filters)}`);
