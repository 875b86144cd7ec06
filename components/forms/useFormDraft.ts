"use client";

import { useEffect, useRef } from "react";
import { useWatch, type DefaultValues, type FieldValues, type UseFormReturn } from "react-hook-form";
import { clearDraft, sessionStore, type DraftStore, type LazyDraftStore } from "@/lib/forms/draft-store";

/**
 * A form's draft in session storage (lib/forms/draft-store). A `DraftStore` is read by the form
 * itself into its starting values (the onboarding steps merge it with what the server saved); a
 * `LazyDraftStore` (its schema loaded with the first read) is restored once, after hydration, as
 * the server renders the empty form, unless something was typed meanwhile.
 */
export type FormDraft<V> = { store: DraftStore<V> | LazyDraftStore<V>; userId: string };

/** Typing is kept this long after the last keystroke (and at once when the page or the form goes away). */
const TEXT_DRAFT_DELAY_MS = 500;

/**
 * Keeps a form's values as its draft: the text once typing pauses (and at once when the page or
 * the form goes away), the photos (large data URLs) only when one of them changed, compared by
 * reference. `clear` removes it once the form is sent; the values the form is then reset to (or
 * moves on with) are not written back, what is typed afterwards is.
 */
export function useFormDraft<V extends FieldValues, O extends FieldValues>(
  form: UseFormReturn<V, unknown, O>,
  draft: FormDraft<V> | undefined,
) {
  const values = useWatch({ control: form.control }) as V;
  const starting = useRef(values);
  const store = draft?.store;
  const userId = draft?.userId ?? "";
  /** Until a lazy draft is read, nothing is written over it. */
  const restored = useRef(false);
  const savedPhotos = useRef<unknown[] | null>(null);
  /** The values of the last change while their text is not yet written. */
  const pending = useRef<V | null>(null);
  /** The first values after `clear` (a reset, or the form moving on) are not a draft. */
  const skipNext = useRef(true);
  const flush = useRef(() => {});
  const { reset, getValues } = form;

  useEffect(() => {
    if (!store) return;
    let current = true;
    const loaded = store.load(sessionStore(), userId);
    if (!(loaded instanceof Promise)) {
      restored.current = true;
      return;
    }
    void loaded
      .catch(() => null)
      .then((saved) => {
        if (!current) return;
        restored.current = true;
        const typed = JSON.stringify(getValues()) !== JSON.stringify(starting.current);
        if (saved && !typed) reset(saved as DefaultValues<V>, { keepDefaultValues: true });
        else {
          skipNext.current = false;
          // What was typed while the draft loaded is the draft now.
          if (typed) store.saveText(sessionStore(), userId, getValues());
        }
      });
    return () => {
      current = false;
    };
  }, [store, userId, reset, getValues]);

  useEffect(() => {
    if (!store) return;
    flush.current = () => {
      if (pending.current) store.saveText(sessionStore(), userId, pending.current);
      pending.current = null;
    };
    const onPageHide = () => flush.current();
    window.addEventListener("pagehide", onPageHide);
    return () => {
      window.removeEventListener("pagehide", onPageHide);
      flush.current();
    };
  }, [store, userId]);

  useEffect(() => {
    if (!store || !restored.current) return;
    if (skipNext.current) {
      skipNext.current = false;
      return;
    }
    const photos = store.photoFields.flatMap((field) => values[field as string]);
    const previous = savedPhotos.current;
    if (!previous || previous.length !== photos.length || photos.some((photo, i) => photo !== previous[i])) {
      savedPhotos.current = photos;
      store.savePhotos(sessionStore(), userId, values);
    }
    pending.current = values;
    const timer = setTimeout(() => flush.current(), TEXT_DRAFT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [store, userId, values]);

  return {
    clear() {
      if (!store) return;
      pending.current = null;
      savedPhotos.current = null;
      skipNext.current = true;
      clearDraft(sessionStore(), userId, store.form);
    },
  };
}
