import type { Status } from "./useSettingsSave";
import styles from "./settings.module.css";

/** A section's outcome, announced politely; an error in the error colour. */
export function StatusLine({ status }: { status: Status }) {
  return (
    <p className={status?.tone === "error" ? `${styles.status} ${styles.statusError}` : styles.status} role="status">
      {status?.text ?? ""}
    </p>
  );
}
