"use client";

import { useEffect, useState } from "react";
import { Dialog } from "@/components/ui/Dialog";
import styles from "./PhotoLightbox.module.css";

/**
 * A couple's extra photos (up to five) as buttons, each named by its photo; one opens a lightbox
 * on the native dialog (focus kept inside, Escape closes, focus back to the photo) over the main
 * photo and the extra ones, where Previous and Next, or the arrow keys, move through them all.
 */
export function PhotoLightbox({ main, photos, coupleName }: { main: string | null; photos: readonly string[]; coupleName: string }) {
  const all = [
    ...(main ? [{ url: main, alt: `${coupleName}, main photo` }] : []),
    ...photos.map((url, i) => ({ url, alt: `${coupleName}, photo ${i + 1} of ${photos.length}` })),
  ];
  const offset = main ? 1 : 0;
  const [index, setIndex] = useState<number | null>(null);
  const count = all.length;
  const open = index !== null;
  useEffect(() => {
    if (!open) return;
    // On the document: the arrow keys work wherever focus is inside the dialog (the close button first).
    const onKeyDown = (event: KeyboardEvent) => {
      const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
      if (step === 0) return;
      event.preventDefault();
      setIndex((current) => (current === null ? null : (current + step + count) % count));
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open, count]);
  const move = (step: number) => setIndex((current) => (current === null ? null : (current + step + count) % count));
  const shown = index === null ? null : all[index]!;
  return (
    <>
      <ul className={styles.gallery}>
        {photos.map((url, i) => (
          <li key={url}>
            <button type="button" className={styles.open} onClick={() => setIndex(i + offset)} aria-haspopup="dialog">
              {/* eslint-disable-next-line @next/next/no-img-element -- stored images are already resized by the server */}
              <img src={url} width={600} height={450} alt={all[i + offset]?.alt ?? ""} loading="lazy" />
            </button>
          </li>
        ))}
      </ul>
      {shown && (
        <Dialog open onClose={() => setIndex(null)} title={shown.alt} closeButton className={styles.lightbox}>
          {/* eslint-disable-next-line @next/next/no-img-element -- see above */}
          <img className={styles.image} src={shown.url} alt="" />
          {count > 1 && (
            <div className={styles.nav}>
              <button type="button" className="button button-secondary" onClick={() => move(-1)}>
                Previous
              </button>
              <button type="button" className="button button-secondary" onClick={() => move(1)}>
                Next
              </button>
            </div>
          )}
        </Dialog>
      )}
    </>
  );
}
