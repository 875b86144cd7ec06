import styles from "./LocationAutocomplete.module.css";

/** Under either view of the location field: news about the last choice (announced), then the form's error. */
export function LocationNotices({ notice, error, errorId }: { notice: string | null; error?: string; errorId: string }) {
  return (
    <>
      {notice && (
        <p className={styles.notice} role="alert">
          {notice}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </>
  );
}
