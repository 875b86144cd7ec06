"use client";

import { useEffect, useState } from "react";
import { Dialog } from "@/components/ui/Dialog";

/**
 * A couple's photos (main first, then up to five more) as buttons; one opens a lightbox on the
 * native dialog (focus kept inside, Escape closes, focus back to the photo), where Previous and
 * Next, or the arrow keys, move through them.
 */
export function PhotoLightbox({ photos, coupleName }: { photos: readonly string[]; coupleName: string }) {
  const [index, setIndex] = useState<number | null>(null);
  const count = photos.length;
  const alt = (i: number) => `${coupleName}, photo ${i + 1} of ${count}`;
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
  return (
    <>
      <ul className="profile-gallery">
        {photos.map((url, i) => (
          <li key={url}>
            <button type="button" className="profile-gallery-button" onClick={() => setIndex(i)} aria-label={`Open ${alt(i)}`}>
              {/* eslint-disable-next-line @next/next/no-img-element -- stored images are already resized by the server */}
              <img src={url} width={600} height={450} alt="" loading="lazy" />
            </button>
          </li>
        ))}
      </ul>
      {index !== null && (
        <Dialog open onClose={() => setIndex(null)} title={alt(index)} closeButton className="profile-lightbox">
          <div>
            {/* eslint-disable-next-line @next/next/no-img-element -- see above */}
            <img className="profile-lightbox-image" src={photos[index]} alt={alt(index)} />
            {count > 1 && (
              <div className="profile-lightbox-nav">
                <button type="button" className="button button-secondary" onClick={() => move(-1)}>
                  Previous
                </button>
                <button type="button" className="button button-secondary" onClick={() => move(1)}>
                  Next
                </button>
              </div>
            )}
          </div>
        </Dialog>
      )}
    </>
  );
}
