"use client";

import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * A value only the browser can read (its zone, today's date, whether it has a camera), fixed for
 * the page's life: `onServer` in the server's HTML and while hydrating, so both renders agree, then
 * the browser's own. `read` returns a primitive (React compares snapshots with Object.is).
 */
export function useBrowserValue<T extends string | number | boolean | null | undefined>(read: () => T, onServer: T): T {
  return useSyncExternalStore(noSubscription, read, () => onServer);
}
