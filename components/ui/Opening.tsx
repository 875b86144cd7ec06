"use client";

import { useEffect, useState } from "react";

const OPENING_TEXT = "Opening...";

/**
 * What shows while a form's code arrives on the click that opened it (next/dynamic's `loading`).
 * `quiet`: told to screen readers only, where a line of text would move a card's layout.
 * The status mounts empty and takes its words once it is in the page: a live region is announced
 * when its text changes, and some screen readers say nothing of one that arrives with its text.
 */
export function Opening({ quiet = false }: { quiet?: boolean }) {
  const [text, setText] = useState("");
  useEffect(() => {
    const frame = requestAnimationFrame(() => setText(OPENING_TEXT));
    return () => cancelAnimationFrame(frame);
  }, []);
  return (
    <p role="status" className={quiet ? "visually-hidden" : undefined}>
      {text}
    </p>
  );
}
