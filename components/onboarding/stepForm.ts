"use client";

import { focusFirstRefused } from "@/components/forms/useZodForm";

/**
 * Moves focus to a refused field (marked with data-field): the control in it marked aria-invalid
 * once rendered, which reads the error (a picker's group, whose boxes and categories say nothing
 * of it); else its first control, since the pickers are groups rather than one input
 * react-hook-form could focus itself.
 */
export function focusField(form: HTMLFormElement | null, field: string | undefined): void {
  if (!form || !field) return;
  const wrapper = form.querySelector<HTMLElement>(`[data-field="${CSS.escape(field)}"]`);
  if (!wrapper) return;
  focusFirstRefused(wrapper, () => {
    const control = wrapper.querySelector<HTMLElement>(
      "input:not([type=hidden]):not(:disabled), textarea:not(:disabled), button:not(:disabled), summary",
    );
    (control ?? wrapper).focus();
  });
}
