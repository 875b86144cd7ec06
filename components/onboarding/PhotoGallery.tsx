"use client";

import { useEffect, useId, useRef, useState } from "react";
import { IMAGE_SIZES } from "@/lib/images/rules";
import { formatFileSize, planGalleryAdditions, type PickedPhoto } from "@/lib/onboarding/client/photo";
import { EXTRA_PHOTOS_MAX } from "@/lib/onboarding/rules";
import { CropDialog } from "./CropDialog";
import { PhotoDropZone } from "./PhotoDropZone";

type PhotoGalleryProps = {
  label: string;
  /** Up to five, each cropped 4:3 to 600x450. */
  value: PickedPhoto[];
  onChange(photos: PickedPhoto[]): void;
  error?: string;
  disabled?: boolean;
};

/** Extra couple photos: pick several at once, crop each in turn (cancel skips that one), remove any. */
export function PhotoGallery({ label, value, onChange, error, disabled = false }: PhotoGalleryProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const [queue, setQueue] = useState<File[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  // The control that had focus can disappear (a removed photo, the full gallery's picker); focus moves on.
  const moveFocus = useRef(false);
  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    (inputRef.current ?? listRef.current?.querySelector<HTMLButtonElement>("li:last-child button"))?.focus();
  }, [value]);

  function pick(files: File[]) {
    const plan = planGalleryAdditions(value.length, files);
    setProblem(plan.error);
    if (plan.accepted.length > 0) setQueue(plan.accepted);
  }
  const nextInQueue = () => setQueue((files) => files.slice(1));

  const shownError = problem ?? error;
  return (
    <div className="field photo-field" role="group" aria-labelledby={labelId}>
      <span id={labelId} className="photo-label">
        {label}
      </span>
      <span className="field-hint">
        {value.length} of {EXTRA_PHOTOS_MAX} photos
      </span>
      {value.length > 0 && (
        <ul ref={listRef} className="photo-gallery">
          {value.map((photo, index) => (
            <li key={index} className="photo-gallery-item">
              {/* eslint-disable-next-line @next/next/no-img-element -- a data URL kept in the draft, not an optimisable asset */}
              <img src={photo.dataUrl} alt={`Couple photo ${index + 1}`} width={photo.width} height={photo.height} className="photo-gallery-image" />
              <span className="photo-size">{formatFileSize(photo.size)}</span>
              <button
                type="button"
                className="button button-secondary photo-remove"
                aria-label={`Remove photo ${index + 1}`}
                disabled={disabled}
                onClick={() => {
                  moveFocus.current = true;
                  setProblem(null);
                  onChange(value.filter((_, other) => other !== index));
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {value.length < EXTRA_PHOTOS_MAX && (
        <PhotoDropZone ref={inputRef} labelledBy={labelId} errorId={shownError ? errorId : undefined} multiple disabled={disabled} onFiles={pick} />
      )}
      {shownError && (
        // A refused selection is news to announce; a form's error is announced by the form.
        <p id={errorId} className="field-error" role={problem ? "alert" : undefined}>
          {shownError}
        </p>
      )}
      <CropDialog
        file={queue[0] ?? null}
        aspect={4 / 3}
        circular={false}
        output={IMAGE_SIZES["couple-photo"]}
        onCancel={nextInQueue}
        onApply={(photo) => {
          moveFocus.current = true;
          onChange([...value, photo]);
          nextInQueue();
        }}
      />
    </div>
  );
}
