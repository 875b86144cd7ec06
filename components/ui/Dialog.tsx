"use client";

import { useEffect, useId, useLayoutEffect, useRef, type ReactNode } from "react";
import { CloseIcon } from "./icons";

type DialogProps = {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  /** Adds a close cross (×) to the title row. */
  closeButton?: boolean;
  /** Extra class on the <dialog>, e.g. for a wider modal. */
  className?: string;
};

/**
 * A modal on the native <dialog>: the browser traps focus, closes on Escape and returns
 * focus to the opener, so keyboard users get the right behaviour for free. It opens on its first
 * control, or on the one marked `data-autofocus`.
 */
export function Dialog({ open, onClose, title, children, closeButton = false, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // A click on the backdrop closes; a drag that merely ends there (moving a crop box) must not.
  const pressedOnBackdrop = useRef(false);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // React's autoFocus runs as the content mounts, before the dialog is open, and the browser
      // ignores it: what asks to be focused on opening (a confirmation's safe choice) is focused now.
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  // A dialog taken out of the page while open (its parent renders it only while it is wanted) is
  // closed first, while it is still in the page: closing is what gives focus back to its opener.
  useLayoutEffect(() => {
    const dialog = ref.current;
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);
  const heading = <h2 id={titleId}>{title}</h2>;
  return (
    <dialog
      ref={ref}
      className={className ? `dialog ${className}` : "dialog"}
      aria-labelledby={titleId}
      onClose={onClose}
      onPointerDown={(event) => {
        pressedOnBackdrop.current = event.target === ref.current;
      }}
      onClick={(event) => {
        if (event.target === ref.current && pressedOnBackdrop.current) onClose();
      }}
    >
      <div className="dialog-body">
        {closeButton ? (
          <div className="dialog-title-row">
            {heading}
            <button type="button" className="icon-button dialog-close" aria-label="Close" onClick={onClose}>
              <CloseIcon />
            </button>
          </div>
        ) : (
          heading
        )}
        {children}
      </div>
    </dialog>
  );
}
