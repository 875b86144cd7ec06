"use client";

import { useState } from "react";
import { useForm, type DefaultValues, type FieldValues, type Path, type Resolver } from "react-hook-form";
import type { z } from "zod";
import { useFormDraft, type FormDraft } from "./useFormDraft";
import { firstFocusable } from "@/components/ui/focusable";
import { listFieldOf } from "@/lib/forms/field-path";

/** Where a form's schema lives: `() => import("@/lib/<domain>/schemas").then((m) => m.someSchema)`. */
export type SchemaLoader<Input extends FieldValues, Output extends FieldValues> = () => Promise<z.ZodType<Output, Input>>;

/**
 * When a form checks its fields:
 * - "as-typed": each field as it is typed and when it is left, and focus goes to the first refused
 *   field on submit (the registration and invitation forms);
 * - "on-submit": on submit only, the messages staying until the next submit, and focus goes to
 *   the first refused field (which says its message: a screen reader hears why the submit did not
 *   go); when the checks cannot load, the form is sent unchecked and the server, which parses with
 *   the same schemas, answers with the same messages (the settings, sign-in help and dialogs);
 * - "from-submit": on submit, then each field again as it changes, so a message goes as soon as
 *   its field is put right; focus is the form's to move (the onboarding steps, whose pickers are
 *   groups), and unchecked when the checks cannot load, as "on-submit".
 */
export type FormChecks = "as-typed" | "on-submit" | "from-submit";

/**
 * A resolver that loads zod, the schema and the zod resolver the first time the form validates
 * (a field typed or left, or a submit), so the page's first paint ships none of them; each later
 * validation reuses them. Same schema, same messages as the server's. `uncheckedWhenUnavailable`:
 * a schema that cannot load lets the values through instead of failing the submit.
 */
export function lazyZodResolver<Input extends FieldValues, Output extends FieldValues>(
  load: SchemaLoader<Input, Output>,
  uncheckedWhenUnavailable = false,
): Resolver<Input, unknown, Output> {
  let loaded: Promise<Resolver<Input, unknown, Output>> | undefined;
  return async (values, context, options) => {
    loaded ??= Promise.all([import("@hookform/resolvers/zod"), load()]).then(([{ zodResolver }, schema]) => zodResolver(schema));
    let resolve: Resolver<Input, unknown, Output>;
    try {
      resolve = await loaded;
    } catch (error) {
      loaded = undefined;
      if (!uncheckedWhenUnavailable) throw error;
      return { values: values as unknown as Output, errors: {} };
    }
    return resolve(values, context, options);
  };
}

const MODES = {
  "as-typed": { mode: "all" },
  "on-submit": { mode: "onSubmit", reValidateMode: "onSubmit", shouldFocusError: true },
  "from-submit": { mode: "onSubmit", reValidateMode: "onChange", shouldFocusError: false },
} as const;

/**
 * The forms' one idiom: react-hook-form with the domain's zod schema (the one the server parses
 * with), loaded on first use, as resolver. A form registers its fields, submits through
 * `handleSubmit`, shows `formState.isSubmitting` as its busy state and puts the server's field
 * messages on the fields with `setServerErrors`. A form with a `draft` keeps its values in session
 * storage as they change (useFormDraft) and calls `clearDraft()` once it is sent.
 */
export function useZodForm<Input extends FieldValues, Output extends FieldValues>(
  load: SchemaLoader<Input, Output>,
  defaultValues: DefaultValues<Input>,
  checks: FormChecks = "as-typed",
  draft?: FormDraft<Input>,
) {
  const [resolver] = useState(() => lazyZodResolver(load, checks !== "as-typed"));
  const form = useForm<Input, unknown, Output>({ resolver, defaultValues, ...MODES[checks] });
  // react-hook-form focuses the first refused field it registered; a field kept by value (a
  // mention box, a picker) it cannot, so the refused control is found by its aria-invalid.
  const handleSubmit: typeof form.handleSubmit = (onValid, onInvalid) =>
    form.handleSubmit(onValid, async (errors, event) => {
      if (checks !== "from-submit" && event?.target instanceof HTMLFormElement) focusFirstRefused(event.target);
      await onInvalid?.(errors, event);
    });
  const { clear } = useFormDraft(form, draft);
  const setServerErrors: ServerErrors = (fields, fieldOf = (field) => field) => {
    let first = true;
    for (const [field, message] of Object.entries(fields)) {
      const name = fieldOf(listFieldOf(field));
      if (name === null) continue;
      form.setError(name as Path<Input>, { message }, { shouldFocus: first });
      first = false;
    }
  };
  return { ...form, handleSubmit, clearDraft: clear, setServerErrors };
}

/** The frames a refused field's message may take to render before focus goes to it. */
const FOCUS_WAIT_FRAMES = 5;

/**
 * Focuses the first control marked invalid in `within` (a form, or one field's part of it), once
 * rendered, unless focus is on one there already; `otherwise`, when none is marked by then.
 */
export function focusFirstRefused(within: Element, otherwise?: () => void, frame = 0): void {
  const focused = document.activeElement;
  if (focused && within.contains(focused) && focused.getAttribute("aria-invalid") === "true") return;
  const refused = within.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (refused) refused.focus();
  else if (frame < FOCUS_WAIT_FRAMES) requestAnimationFrame(() => focusFirstRefused(within, otherwise, frame + 1));
  else otherwise?.();
}

/**
 * Moves focus to a refused field (marked with data-field): the control in it marked aria-invalid
 * once rendered, which reads the error (a picker's group, whose boxes and categories say nothing
 * of it); else its first control, since the pickers are groups rather than one input
 * react-hook-form could focus itself.
 */
export function focusField(form: HTMLFormElement | null, field: string | undefined): void {
  if (!form || !field) return;
  const wrapper = form.querySelector<HTMLElement>(`[data-field="${CSS.escape(listFieldOf(field))}"]`);
  if (!wrapper) return;
  focusFirstRefused(wrapper, () => (firstFocusable(wrapper) ?? wrapper).focus());
}

/**
 * Puts the server's field messages on the form's fields and focuses the first, as a refused
 * submit of the form's own checks does (a screen reader hears why). `fieldOf` names the form's
 * field for a call's (null: the form shows that one elsewhere).
 */
export type ServerErrors = (fields: Readonly<Record<string, string>>, fieldOf?: (field: string) => string | null) => void;
