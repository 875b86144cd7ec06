/**
 * What shows while a form's code arrives on the click that opened it (next/dynamic's `loading`).
 * `quiet`: told to screen readers only, where a line of text would move a card's layout.
 */
export function Opening({ quiet = false }: { quiet?: boolean }) {
  return (
    <p role="status" className={quiet ? "visually-hidden" : undefined}>
      Opening...
    </p>
  );
}
