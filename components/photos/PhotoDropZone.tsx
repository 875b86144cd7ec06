"use client";

import { useId, useState, type Ref } from "react";
import { ACCEPT_ATTRIBUTE, PHOTO_HINT } from "@/lib/images/rules";
import styles from "./PhotoDropZone.module.css";

type PhotoDropZoneProps = {
  /** Id of the element naming the field (its visible label). */
  labelledBy: string;
  /** Id of the field's error, when one is shown. */
  errorId?: string;
  multiple?: boolean;
  disabled?: boolean;
  onFiles(files: File[]): void;
  /** The file input, for moving focus back to it. */
  ref?: Ref<HTMLInputElement>;
};

/**
 * The picking half of the photo fields: a real file input (keyboard and screen readers work as
 * usual) inside a label that is also a drop target.
 */
export function PhotoDropZone({ labelledBy, errorId, multiple = false, disabled = false, onFiles, ref }: PhotoDropZoneProps) {
  const hintId = useId();
  const [dragging, setDragging] = useState(false);
  return (
    <label
      className={dragging ? `${styles.drop} ${styles.dragging}` : styles.drop}
      onDragOver={(event) => {
        if (disabled) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(event) => {
        // Moving over the zone's own children also fires dragleave.
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(event) => {
        event.preventDefault();
        setDragging(false);
        if (!disabled && event.dataTransfer.files.length > 0) onFiles(Array.from(event.dataTransfer.files));
      }}
    >
      <input
        ref={ref}
        type="file"
        className="visually-hidden"
        accept={ACCEPT_ATTRIBUTE}
        multiple={multiple}
        disabled={disabled}
        aria-labelledby={labelledBy}
        aria-describedby={errorId ? `${hintId} ${errorId}` : hintId}
        aria-invalid={errorId ? true : undefined}
        onChange={(event) => {
          const files = Array.from(event.currentTarget.files ?? []);
          // Cleared so that picking the same file again (after a cancelled crop) is a change too.
          event.currentTarget.value = "";
          if (files.length > 0) onFiles(files);
        }}
      />
      <span>
        <strong>Click to upload</strong> or drag and drop
      </span>
      <span id={hintId} className={styles.hint}>
        {PHOTO_HINT}
      </span>
    </label>
  );
}
