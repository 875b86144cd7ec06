"use client";

import { useEffect, type RefObject } from "react";

/**
 * Closes an open popup (the bell's dropdown, the phone menu) the ways people expect: Escape
 * (focus back on its trigger), a click outside it, or focus leaving it (tabbing out).
 */
export function useDismiss(
  open: boolean,
  close: () => void,
  container: RefObject<HTMLElement | null>,
  trigger: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    if (!open) return;
    const outside = (target: EventTarget | null) => !container.current?.contains(target as Node);
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      close();
      trigger.current?.focus();
    };
    const onFocus = (event: FocusEvent) => {
      if (outside(event.target)) close();
    };
    const onClick = (event: MouseEvent) => {
      if (outside(event.target)) close();
    };
    // Armed after 100 ms so the click that opened the popup does not close it.
    const timer = setTimeout(() => document.addEventListener("mousedown", onClick), 100);
    document.addEventListener("keydown", onKey);
    document.addEventListener("focusin", onFocus);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("mousedown", onClick);
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("focusin", onFocus);
    };
  }, [open, close, container, trigger]);
}
