import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  cacheSearchResults,
  cleanupSearchCache,
  findCachedResults,
  SEARCH_CACHE_MAX_ENTRIES,
  SEARCH_CACHE_TTL_MS,
  searchCacheKey,
} from "@/lib/locations/search-cache";
import type { Prediction } from "@/lib/places/types";
import { MemoryStorage, RefusingStorage } from "@/tests/support/memory-storage";

const place = (name: string, rest = "Portugal"): Prediction => ({
  place_id: `geonames:${name}`,
  description: `${name}, ${rest}`,
  structured_formatting: { main_text: name, secondary_text: rest },
});
const lisbon = [place("Lisbon")];
const lisburn = [place("Lisburn", "Northern Ireland, United Kingdom")];
const porto = [place("Porto")];

const cacheKeys = (storage: Storage) =>
  Array.from({ length: storage.length }, (_, i) => storage.key(i)!).filter((key) => key.startsWith("location_search_cache_"));

describe("location search cache", () => {
  let storage: MemoryStorage;
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-03-01T12:00:00Z"));
    // Never the 10% cleanup, unless a test asks for it.
    vi.spyOn(Math, "random").mockReturnValue(0.99);
    storage = new MemoryStorage();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("keys entries by the lowercased, trimmed query and stores query, results and timestamp", () => {
    cacheSearchResults("  LisBon ", lisbon, storage);
    expect(searchCacheKey("  LisBon ")).toBe("location_search_cache_lisbon");
    expect(JSON.parse(storage.getItem("location_search_cache_lisbon")!)).toEqual({
      query: "lisbon",
      results: lisbon,
      timestamp: Date.now(),
    });
  });

  it("answers the exact query first, then a query starting alike, then one containing the text", () => {
    cacheSearchResults("lisbon", lisbon, storage);
    vi.advanceTimersByTime(1000);
    cacheSearchResults("lisburn", lisburn, storage);
    vi.advanceTimersByTime(1000);
    cacheSearchResults("porto, portugal", porto, storage);

    expect(findCachedResults("LISBON", storage)).toEqual(lisbon);
    // Both start with "lisb": the newest answers.
    expect(findCachedResults("lisb", storage)).toEqual(lisburn);
    // The typed text goes on from a cached query.
    expect(findCachedResults("lisbon port", storage)).toEqual(lisbon);
    expect(findCachedResults("portugal", storage)).toEqual(porto);
    expect(findCachedResults("madrid", storage)).toBeNull();
  });

  it("lets only the exact query answer with no results", () => {
    cacheSearchResults("xq", [], storage);
    expect(findCachedResults("xq", storage)).toEqual([]);
    expect(findCachedResults("xqz", storage)).toBeNull();
  });

  it("forgets entries after 24 hours", () => {
    cacheSearchResults("lisbon", lisbon, storage);
    vi.advanceTimersByTime(SEARCH_CACHE_TTL_MS - 1);
    expect(findCachedResults("lisbon", storage)).toEqual(lisbon);
    vi.advanceTimersByTime(1);
    expect(findCachedResults("lisbon", storage)).toBeNull();
    expect(findCachedResults("lisb", storage)).toBeNull();
  });

  it("keeps at most 100 entries, removing the oldest first", () => {
    for (let i = 0; i <= SEARCH_CACHE_MAX_ENTRIES; i++) {
      cacheSearchResults(`query ${i}`, porto, storage);
      vi.advanceTimersByTime(1000);
    }
    const keys = cacheKeys(storage);
    expect(keys).toHaveLength(SEARCH_CACHE_MAX_ENTRIES);
    expect(keys).not.toContain(searchCacheKey("query 0"));
    expect(keys).toContain(searchCacheKey(`query ${SEARCH_CACHE_MAX_ENTRIES}`));
  });

  it("cleans up expired and unreadable entries with 10% probability after a write, and leaves other keys alone", () => {
    cacheSearchResults("lisbon", lisbon, storage);
    storage.setItem("location_search_cache_broken", "{not json");
    storage.setItem("theme", "dark");
    vi.advanceTimersByTime(SEARCH_CACHE_TTL_MS);

    cacheSearchResults("porto", porto, storage);
    expect(storage.getItem(searchCacheKey("lisbon"))).not.toBeNull();

    vi.mocked(Math.random).mockReturnValue(0.05);
    cacheSearchResults("porto", porto, storage);
    expect(cacheKeys(storage)).toEqual([searchCacheKey("porto")]);
    expect(storage.getItem("theme")).toBe("dark");
  });

  it("cleans up and writes again when the storage is full", () => {
    const entrySize = (query: string, results: Prediction[]) =>
      searchCacheKey(query).length + JSON.stringify({ query, results, timestamp: Date.now() }).length;
    // Room for one entry, not two.
    const full = new MemoryStorage(entrySize("lisbon", lisbon) + entrySize("porto", porto) - 1);
    cacheSearchResults("lisbon", lisbon, full);
    vi.advanceTimersByTime(SEARCH_CACHE_TTL_MS);
    cacheSearchResults("porto", porto, full);
    // Only the expired entry made room: the new one is there, and it was the only thing removed.
    expect(cacheKeys(full)).toEqual([searchCacheKey("porto")]);
    expect(findCachedResults("porto", full)).toEqual(porto);
  });

  it("gives up quietly when even a cleaned storage is full", () => {
    const tiny = new MemoryStorage(10);
    expect(() => cacheSearchResults("lisbon", lisbon, tiny)).not.toThrow();
    expect(findCachedResults("lisbon", tiny)).toBeNull();
  });

  it("never breaks a search when the browser refuses storage", () => {
    const refusing = new RefusingStorage();
    expect(() => cacheSearchResults("lisbon", lisbon, refusing)).not.toThrow();
    expect(findCachedResults("lisbon", refusing)).toBeNull();
    expect(() => cleanupSearchCache(refusing)).not.toThrow();
    expect(findCachedResults("lisbon", null)).toBeNull();
  });
});
