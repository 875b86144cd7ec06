"use client";

import { useState } from "react";
import { Lightbox } from "@/components/photos/Lightbox";
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
      <Lightbox photos={all} index={index} onIndex={setIndex} />
    </>
  );
}
