"use client";

import { useRef, useState } from "react";
import { IMAGE_SIZES } from "@/lib/images/rules";
import { planGalleryAdditions } from "@/lib/couples/client/gallery";
import { formatFileSize, type PickedPhoto } from "@/lib/images/client/photo";
import { EXTRA_PHOTOS_MAX } from "@/lib/couples/rules";
import { CropDialog } from "./CropDialog";
import { PhotoDropZone } from "./PhotoDropZone";
import { usePhotoField } from "./usePhotoField";
import styles from "./PhotoField.module.css";

type PhotoGalleryProps = {
  label: string;
  /** Up to five, each cropped 4:3 to 600x450. */
  value: PickedPhoto[];
  onChange(photos: PickedPhoto[]): void;
  error?: string;
  disabled?: boolean;
  /** Photos already saved (the settings' gallery) that count towards the five. */
  kept?: number;
};

/** Extra couple photos: pick several at once, crop each in turn (cancel skips that one), remove any. */
export function PhotoGallery({ label, value, onChange, error, disabled = false, kept = 0 }: PhotoGalleryProps) {
  const [queue, setQueue] = useState<File[]>([]);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  // A removed photo's button is gone, and so is the full gallery's picker: focus goes to the picker, else the last photo.
  const field = usePhotoField(
    value,
    error,
    () => inputRef.current ?? listRef.current?.querySelector<HTMLButtonElement>("li:last-child button"),
  );

  function pick(files: File[]) {
    const plan = planGalleryAdditions(kept + value.length, files);
    field.setProblem(plan.error);
    if (plan.accepted.length > 0) setQueue(plan.accepted);
  }
  const nextInQueue = () => setQueue((files) => files.slice(1));

  return (
    <div className="field" role="group" aria-labelledby={field.labelId}>
      <span id={field.labelId} className={styles.label}>
        {label}
      </span>
      <span className="field-hint">
        {kept + value.length} of {EXTRA_PHOTOS_MAX} photos
      </span>
      {value.length > 0 && (
        <ul ref={listRef} className={styles.gallery}>
          {value.map((photo, index) => (
            <li key={index} className={styles.galleryItem}>
              {/* eslint-disable-next-line @next/next/no-img-element -- a data URL kept in the draft, not an optimisable asset */}
              <img
                src={photo.dataUrl}
                alt={`Couple photo ${kept + index + 1}`}
                width={photo.width}
                height={photo.height}
                className={styles.galleryImage}
              />
              <span className={styles.size}>{formatFileSize(photo.size)}</span>
              <button
                type="button"
                className={`button button-secondary ${styles.remove}`}
                aria-label={`Remove photo ${kept + index + 1}`}
                disabled={disabled}
                onClick={() => {
                  field.armFocus();
                  field.setProblem(null);
                  onChange(value.filter((_, other) => other !== index));
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {kept + value.length < EXTRA_PHOTOS_MAX && (
        <PhotoDropZone ref={inputRef} labelledBy={field.labelId} errorId={field.errorId} multiple disabled={disabled} onFiles={pick} />
      )}
      {field.errorMessage}
      <CropDialog
        file={queue[0] ?? null}
        aspect={4 / 3}
        circular={false}
        output={IMAGE_SIZES["couple-photo"]}
        onCancel={nextInQueue}
        onApply={(photo) => {
          field.armFocus();
          onChange([...value, photo]);
          nextInQueue();
        }}
      />
    </div>
  );
}
