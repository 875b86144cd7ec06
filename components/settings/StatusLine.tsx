import type { Status } from "./useSettingsSave";
import styles from "./settings.module.css";

/**
 * A section's outcome, announced politely; an error in the error colour. Its line is kept while
 * empty, so an outcome appearing moves nothing below it; `keepLine={false}` where what it reports
 * moves the section anyway (a row removed), so an empty line leaves no gap between what surrounds it.
 */
export function StatusLine({ status, keepLine = true }: { status: Status; keepLine?: boolean }) {
  const classes = [styles.status, status?.tone === "error" && styles.statusError, !status && !keepLine && styles.statusIdle];
  return (
    <p className={classes.filter(Boolean).join(" ")} role="status">
      {status?.text ?? ""}
    </p>
  );
}
