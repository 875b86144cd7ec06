"use client";

import { useEffect } from "react";
import { Dialog } from "@/components/ui/Dialog";
import styles from "./Lightbox.module.css";

export type LightboxPhoto = { url: string; alt: string };

type Props = { photos: readonly LightboxPhoto[]; index: number | null; onIndex(index: number | null): void };

/**
 * Photos full size on the native dialog (focus kept inside, Escape closes, focus back to what
 * opened it): Previous and Next, or the arrow keys, move through several; a pinch zooms on a phone.
 * The profile's gallery and a message's photo open it.
 */
export function Lightbox({ photos, index, onIndex }: Props) {
  const count = photos.length;
  const open = index !== null;
  useEffect(() => {
    if (!open || count < 2) return;
    // On the document: the arrow keys work wherever focus is inside the dialog (the close button first).
    const onKeyDown = (event: KeyboardEvent) => {
      const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
      if (step === 0 || index === null) return;
      event.preventDefault();
      onIndex((index + step + count) % count);
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open, count, index, onIndex]);
  const shown = index === null ? null : photos[index];
  if (!shown || index === null) return null;
  const move = (step: number) => onIndex((index + step + count) % count);
  return (
    <Dialog open onClose={() => onIndex(null)} title={shown.alt} closeButton className={styles.lightbox}>
      {/* eslint-disable-next-line @next/next/no-img-element -- stored images are already resized by the server */}
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
  );
}
