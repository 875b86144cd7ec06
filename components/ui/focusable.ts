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
