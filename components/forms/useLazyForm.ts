"use client";

import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FormEvent, type RefObject } from "react";
import { flushSync } from "react-dom";
import { hasDraft, sessionStore, type LazyDraftStore } from "@/lib/forms/draft-store";

/**
 * What the light form hands the full one as it takes its place: the values typed, the caret when
 * its field had focus (null: it had none), and whether it was submitted meanwhile.
 */
export type Handover<V> = { values: V; caret: readonly [number, number] | null; submit: boolean };

type LazyFormOptions<Form, V> = {
  /** The full form's component (react-hook-form, zod, the draft's code), with the draft's schema. */
  loadForm(): Promise<Form>;
  draft: LazyDraftStore<V>;
  userId: string;
  /** The values the light form's field holds, from its words (stable: a module's function or a callback). */
  typed(words: string): V;
  /** Said when a submit could not bring the full form. */
  submitFailed: string;
};

/**
 * A form painted light (its frame and field, without react-hook-form, zod or the draft's code)
 * whose full form loads when it is reached (`load`: a pointer on it, a focus in it) or submitted
 * (`submit`), or at once when a draft is waiting; the full form (useHandover) then takes the
 * field's place with what was typed, the caret, and the submit if there was one. What is typed
 * before it comes is the draft on leaving. The forum's reply form and a conversation's composer.
 */
export function useLazyForm<Form, V extends Record<string, unknown>>({
  loadForm,
  draft,
  userId,
  typed,
  submitFailed,
}: LazyFormOptions<Form, V>) {
  const [full, setFull] = useState<{ Form: Form; handover: Handover<V> } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const submitted = useRef(false);
  const loading = useRef(false);

  const load = useCallback(() => {
    if (loading.current) return;
    loading.current = true;
    loadForm().then(
      (Form) => {
        // Read and swapped in one go: no key can land between them.
        const field = formRef.current?.querySelector("textarea");
        const caret = field && document.activeElement === field ? ([field.selectionStart, field.selectionEnd] as const) : null;
        const handover = { values: typed(field?.value ?? ""), caret, submit: submitted.current };
        flushSync(() => setFull({ Form, handover }));
      },
      () => {
        // Tried again on the next reach; what was typed stays in the field.
        loading.current = false;
        if (submitted.current) setFailure(submitFailed);
        submitted.current = false;
      },
    );
  }, [loadForm, typed, submitFailed]);

  const submit = useCallback(
    (event?: FormEvent) => {
      event?.preventDefault();
      setFailure(null);
      submitted.current = true;
      load();
    },
    [load],
  );

  useEffect(() => {
    if (hasDraft(sessionStore(), userId, draft.form)) load();
  }, [load, userId, draft]);
  // Leaving before the full form came: what was typed is the draft, as the full form would keep it.
  useEffect(() => {
    if (full) return;
    const keep = () => {
      const words = formRef.current?.querySelector("textarea")?.value ?? "";
      if (words !== "") draft.saveText(sessionStore(), userId, typed(words));
    };
    window.addEventListener("pagehide", keep);
    return () => window.removeEventListener("pagehide", keep);
  }, [full, draft, userId, typed]);

  return { full, failure, formRef, load, submit };
}

/**
 * The full form's side of the swap, before its first paint: `take` puts the handed values in the
 * form (stable: it runs once), then, once they are rendered, the caret goes back where it was and
 * the form is submitted if the light one was, so the swap loses nothing.
 */
export function useHandover<V>(handover: Handover<V>, form: RefObject<HTMLFormElement | null>, take: (values: V) => void) {
  const [handedOver, setHandedOver] = useState(false);
  useLayoutEffect(() => {
    take(handover.values);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the caret goes back once the words are rendered, before the first paint
    setHandedOver(true);
  }, [handover, take]);
  useLayoutEffect(() => {
    if (!handedOver) return;
    const field = form.current?.querySelector("textarea");
    if (handover.caret && field) {
      // The caret first: the field's focus looks behind it (a mention being typed in a reply).
      field.setSelectionRange(...handover.caret);
      field.focus();
    }
    if (handover.submit) form.current?.requestSubmit();
  }, [handedOver, handover, form]);
}
