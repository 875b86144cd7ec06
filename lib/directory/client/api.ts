/** The browser's call to `GET /api/directory` ('Load more'), through the transport (lib/http/client.ts). */
import "client-only";
import { api } from "@/lib/http/client";
import type { DirectoryPage } from "../queries";
import { filterParams, type DirectoryFilters } from "../rules";

export type { DirectoryCard, DirectoryPage } from "../queries";

export const fetchDirectory = (filters: DirectoryFilters, cursor: string) =>
  api<DirectoryPage>(`/api/directory?${filterParams(filters, cursor)}`);
