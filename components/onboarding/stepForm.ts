"use client";

import type { FieldErrors, FieldValues, Resolver } from "react-hook-form";

/**
 * A react-hook-form resolver over one of the pure step checks (lib/onboarding/step-checks):
 * the errors keep the check's order, so the first one is the spec's first problem.
 */
export function checksResolver<V extends FieldValues>(check: (values: V) => Partial<Record<string, string>>): Resolver<V> {
  return async (values) => {
    const found = Object.entries(check(values)).filter((entry): entry is [string, string] => Boolean(entry[1]));
    if (found.length === 0) return { values, errors: {} };
    const errors = Object.fromEntries(found.map(([field, message]) => [field, { type: "validate", message }]));
    return { values: {}, errors: errors as FieldErrors<V> };
  };
}

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
