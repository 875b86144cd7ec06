"use client";

import { useRef, useState } from "react";
import { PhotoDropZone } from "@/components/photos/PhotoDropZone";
import { usePhotoField } from "@/components/photos/usePhotoField";
import { PHOTOS_MAX } from "@/lib/forum/rules";
import { compressImage } from "@/lib/images/client/compress";
import { imageProblem } from "@/lib/images/client/photo";
import { uploadPhoto } from "@/lib/forum/client/api";
import photoStyles from "@/components/photos/PhotoField.module.css";
import styles from "./ForumPhotos.module.css";

/** `error`: the form's own refusal of the photos, shown and tied to the picker as a refused file is. */
type Props = { value: string[]; onChange(urls: string[]): void; onBusy(busy: boolean): void; disabled?: boolean; error?: string };

/**
 * A post's photos (up to 4): each picked file is compressed in the browser and uploaded on its
 * own to POST /api/forum/photos (sharp strips its metadata there); the post then sends the URLs.
 */
export function ForumPhotos({ value, onChange, onBusy, disabled = false, error }: Props) {
  const [uploading, setUploading] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  // A removed photo's button is gone: focus goes to the picker (back once there is room; not while
  // it waits for an upload), else the last photo's button.
  const field = usePhotoField(value, error, () =>
    inputRef.current && !inputRef.current.disabled
      ? inputRef.current
      : listRef.current?.querySelector<HTMLButtonElement>("li:last-child button"),
  );

  async function pick(files: File[]) {
    const room = PHOTOS_MAX - value.length;
    const usable = files.filter((file) => imageProblem(file) === null);
    field.setProblem(
      files.length > room
        ? `You can add up to ${PHOTOS_MAX} photos`
        : usable.length < files.length
          ? imageProblem(files.find((f) => imageProblem(f))!)
          : null,
    );
    const chosen = usable.slice(0, room);
    if (chosen.length === 0) return;
    onBusy(true);
    setUploading(chosen.length);
    let urls = value;
    try {
      for (const file of chosen) {
        urls = [...urls, await uploadPhoto(await compressImage(file))];
        onChange(urls);
        setUploading((count) => count - 1);
      }
    } catch (failure) {
      field.setProblem(failure instanceof Error ? failure.message : "There was an issue uploading your photo. Please try again.");
    } finally {
      setUploading(0);
      onBusy(false);
    }
  }

  return (
    <div className="field" role="group" aria-labelledby={field.labelId}>
      <span id={field.labelId} className={photoStyles.label}>
        Photos
      </span>
      <span className="field-hint">
        {value.length} of {PHOTOS_MAX} photos{uploading > 0 ? ` · uploading ${uploading}...` : ""}
      </span>
      {value.length > 0 && (
        <ul ref={listRef} className={styles.picks}>
          {value.map((url, index) => (
            <li key={url}>
              {/* eslint-disable-next-line @next/next/no-img-element -- an upload already resized by the server */}
              <img src={url} alt={`Photo ${index + 1}`} width={120} height={90} />
              <button
                type="button"
                className="button button-secondary"
                aria-label={`Remove photo ${index + 1}`}
                disabled={disabled}
                onClick={() => {
                  field.armFocus();
                  onChange(value.filter((other) => other !== url));
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {value.length < PHOTOS_MAX && (
        <PhotoDropZone
          ref={inputRef}
          labelledBy={field.labelId}
          errorId={field.errorId}
          multiple
          disabled={disabled || uploading > 0}
          onFiles={pick}
        />
      )}
      {field.errorMessage}
    </div>
  );
}
