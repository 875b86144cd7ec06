import { Suspense, type ReactNode } from "react";

/**
 * Content already in the HTML whose hydration can wait for the page's own: React hydrates a
 * Suspense boundary after the rest, at a lower priority and in slices that yield to the main
 * thread, instead of inside the page's one long hydration task (a phone's total blocking time).
 * A click on it before then hydrates it first and is replayed. For content that does not suspend
 * (the page has read its data already): no fallback ever shows.
 */
export function HydrateLater({ children }: { children: ReactNode }) {
  return <Suspense>{children}</Suspense>;
}
