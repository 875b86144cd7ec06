"use client";

/**
 * Moves focus to the first control of a field (marked with data-field), since the pickers are
 * groups rather than one input react-hook-form could focus itself.
 */
export function focusField(form: HTMLFormElement | null, field: string | undefined): void {
  if (!form || !field) return;
  const wrapper = form.querySelector<HTMLElement>(`[data-field="${CSS.escape(field)}"]`);
  const control = wrapper?.querySelector<HTMLElement>(
    "input:not([type=hidden]):not(:disabled), textarea:not(:disabled), button:not(:disabled), summary",
  );
  (control ?? wrapper)?.focus();
}
