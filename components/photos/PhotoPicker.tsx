"use client";

import { useRef, useState } from "react";
import { IMAGE_SIZES } from "@/lib/images/rules";
import { formatFileSize, imageProblem, type PickedPhoto } from "@/lib/images/client/photo";
import { CropDialog } from "./CropDialog";
import { PhotoDropZone } from "./PhotoDropZone";
import { SavedPhoto, type SavedPhotoProps } from "./SavedPhoto";
import { usePhotoField } from "./usePhotoField";
import styles from "./PhotoField.module.css";

type PhotoPickerProps = {
  label: string;
  /** Both kinds are cropped round at 1:1 to 400x400. */
  kind: "avatar" | "couple-main";
  value: PickedPhoto | null;
  onChange(photo: PickedPhoto | null): void;
  error?: string;
  disabled?: boolean;
  /** The photo already stored, shown above the picker until a new one is picked. */
  saved?: Omit<SavedPhotoProps, "url"> & { url: string | null };
};

/** One round photo: pick (click or drop), crop, preview with its size, remove. Cancelling the crop drops the file. */
export function PhotoPicker({ label, kind, value, onChange, error, disabled = false, saved }: PhotoPickerProps) {
  const [pending, setPending] = useState<File | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const removeRef = useRef<HTMLButtonElement>(null);
  // Applying or removing a photo swaps the picker and the remove button: focus moves to whichever is shown.
  const field = usePhotoField(value, error, () => (value ? removeRef.current : inputRef.current));

  function pick(files: File[]) {
    const file = files[0];
    if (!file) return;
    const reason = imageProblem(file);
    field.setProblem(reason);
    if (!reason) setPending(file);
  }

  return (
    <>
      {!value && saved?.url && <SavedPhoto {...saved} url={saved.url} />}
      <div className="field" role="group" aria-labelledby={field.labelId}>
        <span id={field.labelId} className={styles.label}>
          {label}
        </span>
        {value ? (
          <div className={styles.preview}>
            {/* eslint-disable-next-line @next/next/no-img-element -- a data URL kept in the draft, not an optimisable asset */}
            <img src={value.dataUrl} alt={`${label} preview`} width={value.width} height={value.height} className={styles.previewImage} />
            <div className={styles.meta}>
              <span className={styles.name}>{value.name}</span>
              <span className={styles.size}>{formatFileSize(value.size)}</span>
            </div>
            <button
              ref={removeRef}
              type="button"
              className={`button button-secondary ${styles.remove}`}
              aria-label={`Remove ${label.toLowerCase()}`}
              // The server may refuse the photo shown (its content, an expired upload): its error describes this control.
              aria-describedby={field.errorId}
              disabled={disabled}
              onClick={() => {
                field.armFocus();
                onChange(null);
              }}
            >
              Remove
            </button>
          </div>
        ) : (
          <PhotoDropZone ref={inputRef} labelledBy={field.labelId} errorId={field.errorId} disabled={disabled} onFiles={pick} />
        )}
        {field.errorMessage}
        <CropDialog
          file={pending}
          aspect={1}
          circular
          output={IMAGE_SIZES[kind]}
          onCancel={() => setPending(null)}
          onApply={(photo) => {
            setPending(null);
            field.armFocus();
            onChange(photo);
          }}
        />
      </div>
    </>
  );
}
