/**
 * The browser's cache of location searches (spec section 9): what live search answered, kept so
 * a failed search can still offer suggestions. Browser-safe; Storage is passed in by tests.
 */
import type { Prediction } from "@/lib/places/types";
import { searchCacheEntrySchema, type SearchCacheEntry as Entry } from "./client/storage-schemas";

export const SEARCH_CACHE_PREFIX = "location_search_cache_";
export const SEARCH_CACHE_TTL_MS = 24 * 60 * 60 * 1000;
export const SEARCH_CACHE_MAX_ENTRIES = 100;
export const SEARCH_CACHE_CLEANUP_PROBABILITY = 0.1;

export const normalizeSearchQuery = (query: string) => query.trim().toLowerCase();
export const searchCacheKey = (query: string) => SEARCH_CACHE_PREFIX + normalizeSearchQuery(query);

/** localStorage can be missing (server) or refuse access (privacy settings): then there is no cache. */
function defaultStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

const isQuotaError = (error: unknown) =>
  error instanceof Error && (error.name === "QuotaExceededError" || error.name === "NS_ERROR_DOM_QUOTA_REACHED");

function cacheKeys(storage: Storage): string[] {
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key?.startsWith(SEARCH_CACHE_PREFIX)) keys.push(key);
  }
  return keys;
}

function readEntry(storage: Storage, key: string): Entry | null {
  try {
    const parsed = searchCacheEntrySchema.safeParse(JSON.parse(storage.getItem(key) ?? "null"));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const isFresh = (entry: Entry, now: number) => now - entry.timestamp < SEARCH_CACHE_TTL_MS;

/** Removes expired and unreadable entries, then the oldest ones beyond the maximum. */
export function cleanupSearchCache(storage: Storage | null = defaultStorage()): void {
  if (!storage) return;
  const now = Date.now();
  const kept: { key: string; timestamp: number }[] = [];
  for (const key of cacheKeys(storage)) {
    const entry = readEntry(storage, key);
    if (entry && isFresh(entry, now)) kept.push({ key, timestamp: entry.timestamp });
    else storage.removeItem(key);
  }
  kept.sort((a, b) => a.timestamp - b.timestamp);
  for (const { key } of kept.slice(0, Math.max(0, kept.length - SEARCH_CACHE_MAX_ENTRIES))) storage.removeItem(key);
}

/** Keeps what a live search answered. A full storage is cleaned once and tried again; a cache never breaks a search. */
export function cacheSearchResults(query: string, results: Prediction[], storage: Storage | null = defaultStorage()): void {
  if (!storage || normalizeSearchQuery(query) === "") return;
  const key = searchCacheKey(query);
  const value = JSON.stringify({ query: normalizeSearchQuery(query), results, timestamp: Date.now() } satisfies Entry);
  try {
    storage.setItem(key, value);
  } catch (error) {
    if (!isQuotaError(error)) return;
    cleanupSearchCache(storage);
    try {
      storage.setItem(key, value);
    } catch {
      return;
    }
  }
  // Counting keys is cheap; reading every entry is not, so the full cleanup runs only when needed or by chance.
  if (cacheKeys(storage).length > SEARCH_CACHE_MAX_ENTRIES || Math.random() < SEARCH_CACHE_CLEANUP_PROBABILITY) cleanupSearchCache(storage);
}

/**
 * The fallback when live search fails: the same query, else the newest entry whose query and the
 * typed text start alike ("lisb" and "lisbon"), else the newest where one contains the other.
 * Expired entries never answer. null when nothing fits.
 */
export function findCachedResults(query: string, storage: Storage | null = defaultStorage()): Prediction[] | null {
  const wanted = normalizeSearchQuery(query);
  if (!storage || wanted === "") return null;
  const now = Date.now();
  const fresh = cacheKeys(storage)
    .map((key) => readEntry(storage, key))
    .filter((entry): entry is Entry => entry !== null && isFresh(entry, now))
    .sort((a, b) => b.timestamp - a.timestamp);
  // A neighbour's empty answer says nothing about this query; only the exact one may answer "none".
  const neighbours = fresh.filter((entry) => entry.results.length > 0);
  const match =
    fresh.find((entry) => entry.query === wanted) ??
    neighbours.find((entry) => entry.query.startsWith(wanted) || wanted.startsWith(entry.query)) ??
    neighbours.find((entry) => entry.query.includes(wanted) || wanted.includes(entry.query));
  return match ? match.results : null;
}
