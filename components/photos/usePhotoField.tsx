"use client";

import { useEffect, useId, useRef, useState } from "react";

/**
 * What both photo fields share: ids for their label and error; the picker's own problem (a refused
 * file), shown over the form's error and announced; and focus that follows the photos: after a
 * change announced with `armFocus()`, focus goes to `focusTarget()`, since the control that had it
 * (a remove button, the full gallery's picker) may be gone.
 */
export function usePhotoField(value: unknown, formError: string | undefined, focusTarget: () => HTMLElement | null | undefined) {
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const armed = useRef(false);
  const target = useRef(focusTarget);
  useEffect(() => {
    target.current = focusTarget;
  });
  useEffect(() => {
    if (!armed.current) return;
    armed.current = false;
    target.current()?.focus();
  }, [value]);

  const shownError = problem ?? formError;
  const errorId = `${id}-error`;
  return {
    labelId: `${id}-label`,
    /** The error's id while one is shown, for the file input's description. */
    errorId: shownError ? errorId : undefined,
    setProblem,
    armFocus: () => {
      armed.current = true;
    },
    errorMessage: shownError ? (
      // A refused file is news to announce; a form's error is announced by the form.
      <p id={errorId} className="field-error" role={problem ? "alert" : undefined}>
        {shownError}
      </p>
    ) : null,
  };
}
