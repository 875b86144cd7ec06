/**
 * The controls a keyboard user can reach, in document order: links, enabled buttons and fields, a
 * disclosure's summary (the onboarding's interest categories), and what a tab index puts in the
 * order. One rule for every "move the focus to the first control in this" (components/ui/LoadMore.tsx,
 * components/forms/useZodForm.ts focusField).
 */
export const FOCUSABLE_CONTROLS = [
  "a[href]",
  "button:not(:disabled)",
  "input:not([type=hidden]):not(:disabled)",
  "select:not(:disabled)",
  "textarea:not(:disabled)",
  "summary",
  '[tabindex]:not([tabindex="-1"])',
].join(", ");

/** The first control a keyboard user can reach within `container`, or null. */
export const firstFocusable = (container: Element): HTMLElement | null => container.querySelector<HTMLElement>(FOCUSABLE_CONTROLS);

/**
 * The row that takes the focus when the row that held it (`gone`) leaves a list: the next row of
 * the list as it was (`before`) that is still shown (`now`), else the one before it, else the
 * list's first row now; null when the list is empty (the caller's heading or words then).
 */
export function rowInPlaceOf(before: readonly string[], now: readonly string[], gone: string): string | null {
  const shown = new Set(now);
  const at = before.indexOf(gone);
  const next = at === -1 ? undefined : before.slice(at + 1).find((id) => shown.has(id));
  const previous = at === -1 ? undefined : before.slice(0, at).findLast((id) => shown.has(id));
  return next ?? previous ?? now[0] ?? null;
}
