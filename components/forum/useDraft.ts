"use client";

import { useEffect, useRef, useState } from "react";
import { clearDraft, sessionStore, type DraftStore } from "@/lib/onboarding/drafts";

/**
 * A form's value kept in session storage per user and form: restored after hydration (the
 * server renders the empty form), saved on every change, cleared once sent.
 */
export function useDraft<T extends Record<string, unknown>>(store: DraftStore<T>, userId: string, empty: T) {
  const [value, setValue] = useState<T>(empty);
  const restored = useRef(false);
  const blank = useRef(empty);

  useEffect(() => {
    const saved = store.load(sessionStore(), userId);
    // Restoring once, after hydration, is the point: the server cannot see session storage.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (saved) setValue(saved);
    restored.current = true;
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
