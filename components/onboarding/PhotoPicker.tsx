"use client";

import { useEffect, useId, useRef, useState } from "react";
import { IMAGE_SIZES } from "@/lib/images/rules";
import { formatFileSize, imageProblem, type PickedPhoto } from "@/lib/onboarding/client/photo";
import { CropDialog } from "./CropDialog";
import { PhotoDropZone } from "./PhotoDropZone";

type PhotoPickerProps = {
  label: string;
  /** Both kinds are cropped round at 1:1 to 400x400. */
  kind: "avatar" | "couple-main";
  value: PickedPhoto | null;
  onChange(photo: PickedPhoto | null): void;
  error?: string;
  disabled?: boolean;
};

/** One round photo: pick (click or drop), crop, preview with its size, remove. Cancelling the crop drops the file. */
export function PhotoPicker({ label, kind, value, onChange, error, disabled = false }: PhotoPickerProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const [pending, setPending] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const removeRef = useRef<HTMLButtonElement>(null);
  // The control that had focus disappears when a photo is applied or removed; focus moves to its replacement.
  const moveFocus = useRef(false);
  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    (value ? removeRef.current : inputRef.current)?.focus();
  }, [value]);

  function pick(files: File[]) {
    const file = files[0];
    if (!file) return;
    const reason = imageProblem(file);
    setProblem(reason);
    if (!reason) setPending(file);
  }

  const shownError = problem ?? error;
  return (
    <div className="field photo-field" role="group" aria-labelledby={labelId}>
      <span id={labelId} className="photo-label">
        {label}
      </span>
      {value ? (
        <div className="photo-preview">
          {/* eslint-disable-next-line @next/next/no-img-element -- a data URL kept in the draft, not an optimisable asset */}
          <img src={value.dataUrl} alt={`${label} preview`} width={value.width} height={value.height} className="photo-preview-image photo-round" />
          <div className="photo-meta">
            <span className="photo-name">{value.name}</span>
            <span className="photo-size">{formatFileSize(value.size)}</span>
          </div>
          <button
            ref={removeRef}
            type="button"
            className="button button-secondary photo-remove"
            aria-label={`Remove ${label.toLowerCase()}`}
            disabled={disabled}
            onClick={() => {
              moveFocus.current = true;
              onChange(null);
            }}
          >
            Remove
          </button>
        </div>
      ) : (
        <PhotoDropZone ref={inputRef} labelledBy={labelId} errorId={shownError ? errorId : undefined} disabled={disabled} onFiles={pick} />
      )}
      {shownError && (
        // A refused file is news to announce; a form's error is announced by the form.
        <p id={errorId} className="field-error" role={problem ? "alert" : undefined}>
          {shownError}
        </p>
      )}
      <CropDialog
        file={pending}
        aspect={1}
        circular
        output={IMAGE_SIZES[kind]}
        onCancel={() => setPending(null)}
        onApply={(photo) => {
          setPending(null);
          moveFocus.current = true;
          onChange(photo);
        }}
      />
    </div>
  );
}
