import styles from "./PhotoField.module.css";

export type SavedPhotoProps = {
  url: string;
  alt: string;
  /** Says what it is and that a new upload replaces it. */
  hint: string;
};

/** The round photo already stored, shown above its picker until a new one is picked. */
export function SavedPhoto({ url, alt, hint }: SavedPhotoProps) {
  return (
    <div className={styles.saved}>
      {/* eslint-disable-next-line @next/next/no-img-element -- the stored photo, already at its final size */}
      <img src={url} width={400} height={400} alt={alt} className={styles.savedImage} />
      <p className="field-hint">{hint}</p>
    </div>
  );
}
