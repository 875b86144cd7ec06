"use client";

import { useEffect, useRef, useState } from "react";
import { clearDraft, sessionStore, type LazyDraftStore } from "@/lib/forms/draft-store";

/**
 * A form's value kept in session storage per user and form: restored after hydration (the
 * server renders the empty form), saved on every change, cleared once sent.
 */
export function useDraft<T extends Record<string, unknown>>(store: LazyDraftStore<T>, userId: string, empty: T) {
  const [value, setValue] = useState<T>(empty);
  const restored = useRef(false);
  const blank = useRef(empty);

  useEffect(() => {
    let current = true;
    // Restoring once, after hydration, is the point: the server cannot see session storage. The
    // draft's schema loads with this first read; what was typed meanwhile is kept, not replaced.
    void store
      .load(sessionStore(), userId)
      .catch(() => null)
      .then((saved) => {
        if (!current) return;
        if (saved) setValue((typed) => (typed === blank.current ? saved : typed));
        restored.current = true;
      });
    return () => {
      current = false;
    };
  }, [store, userId]);

  useEffect(() => {
    if (restored.current && value !== blank.current) store.saveText(sessionStore(), userId, value);
  }, [store, userId, value]);

  return {
    value,
    update: (patch: Partial<T>) => setValue((current) => ({ ...current, ...patch })),
    clear: () => {
      clearDraft(sessionStore(), userId, store.form);
      setValue(blank.current);
    },
  };
}
