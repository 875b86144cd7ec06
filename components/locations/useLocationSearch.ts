"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { LocationSearchError, searchLocations } from "@/lib/locations/client/api";
import { SEARCH_MIN_QUERY, searchFailureMessage } from "@/lib/locations/rules";
import type { Prediction } from "@/lib/places/types";

export const SEARCH_DEBOUNCE_MS = 300;

export type SearchState =
  | { kind: "idle" }
  /** `predictions`: the previous answer, still shown so the list does not flicker while typing. */
  | { kind: "searching"; predictions: Prediction[] }
  | { kind: "results"; predictions: Prediction[] }
  | { kind: "empty" }
  /** Live search failed and the cache had nothing close. */
  | { kind: "unavailable"; message: string };

/**
 * The search cache (and zod, which checks its entries) loads once the page has started: when the
 * browser is first idle, or sooner when the person turns to the field (focus or a keystroke). It
 * is needed only once a search is answered or fails, and loaded early it still answers when the
 * network is gone later.
 */
let searchCache: ReturnType<typeof loadSearchCache> | undefined;
function loadSearchCache() {
  return import("@/lib/locations/search-cache").catch(() => null);
}
const withSearchCache = () => {
  const loading = (searchCache ??= loadSearchCache());
  void loading.then((cache) => {
    if (!cache) searchCache = undefined;
  });
  return loading;
};

const shown = (predictions: Prediction[]): SearchState => (predictions.length > 0 ? { kind: "results", predictions } : { kind: "empty" });

/**
 * The spec's search flow (sections 4, 5, 9): debounced, only from 2 trimmed characters, the
 * newest query wins (older requests are aborted), every answer cached, and the cache answers
 * when live search fails.
 */
export function useLocationSearch() {
  const [state, setState] = useState<SearchState>({ kind: "idle" });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const request = useRef<AbortController | null>(null);
  // One search session from the first search to the pick (Places API (New) session tokens): a
  // billed provider counts its keystrokes and the details of the pick as one. randomUUID exists
  // only in secure contexts; without it, searches go without a session, billed one by one.
  const session = useRef<string | undefined>(undefined);

  const cancel = useCallback(() => {
    clearTimeout(timer.current);
    request.current?.abort();
    request.current = null;
  }, []);

  useEffect(() => cancel, [cancel]);
  useEffect(() => {
    const load = () => void withSearchCache();
    if (typeof requestIdleCallback === "function") {
      const idle = requestIdleCallback(load);
      return () => cancelIdleCallback(idle);
    }
    // Safari has no idle callback: a moment after the page starts.
    const timer = setTimeout(load, 1000);
    return () => clearTimeout(timer);
  }, []);

  const run = useCallback(async (query: string) => {
    const controller = new AbortController();
    request.current = controller;
    setState((current) => ({ kind: "searching", predictions: "predictions" in current ? current.predictions : [] }));
    const settle = (next: SearchState) => {
      if (request.current !== controller) return;
      request.current = null;
      setState(next);
    };
    try {
      const predictions = await searchLocations(query, controller.signal, (session.current ??= globalThis.crypto?.randomUUID?.()));
      void withSearchCache().then((cache) => cache?.cacheSearchResults(query, predictions));
      settle(shown(predictions));
    } catch (error) {
      if (controller.signal.aborted) return;
      const cached = (await withSearchCache())?.findCachedResults(query) ?? null;
      const message = error instanceof LocationSearchError ? error.message : searchFailureMessage("other");
      settle(cached ? shown(cached) : { kind: "unavailable", message });
    }
  }, []);

  /** Call when the field gets focus: the cache is on its way before the first search. */
  const prepare = useCallback(() => void withSearchCache(), []);

  /** Call on every keystroke. */
  const schedule = useCallback(
    (text: string) => {
      cancel();
      prepare();
      if (text.trim().length < SEARCH_MIN_QUERY) {
        setState({ kind: "idle" });
        return;
      }
      timer.current = setTimeout(() => void run(text), SEARCH_DEBOUNCE_MS);
    },
    [cancel, prepare, run],
  );

  /** 'Try searching again': at once, no debounce. */
  const retry = useCallback(
    (text: string) => {
      cancel();
      if (text.trim().length >= SEARCH_MIN_QUERY) void run(text);
    },
    [cancel, run],
  );

  const reset = useCallback(() => {
    cancel();
    setState({ kind: "idle" });
  }, [cancel]);

  /**
   * Call when a suggestion is picked: answers the session the pick ends (for its details lookup)
   * and forgets it, since an ended session's token bills as none; the next search starts another.
   */
  const endSession = useCallback(() => {
    const ended = session.current;
    session.current = undefined;
    return ended;
  }, []);

  return { state, prepare, schedule, retry, reset, endSession };
}
