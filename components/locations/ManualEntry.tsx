import type { SearchState } from "./useLocationSearch";
import styles from "./LocationAutocomplete.module.css";

type ManualEntryProps = {
  state: SearchState;
  /** The text typed so far, trimmed. */
  typed: string;
  /** Said under 'Continue with ...'. */
  hint?: string;
  onUseTyped(): void;
  onRetry(): void;
};

/**
 * Typing the location by hand (spec section 2): offered when search finds nothing, and when search
 * is down, with the error and a way to search again.
 */
export function ManualEntry({
  state,
  typed,
  hint = "You can update your location later in settings.",
  onUseTyped,
  onRetry,
}: ManualEntryProps) {
  if (state.kind === "empty") {
    return (
      <button type="button" className={`button button-secondary ${styles.manual}`} onClick={onUseTyped}>
        Use entered location
      </button>
    );
  }
  if (state.kind !== "unavailable") return null;
  return (
    <>
      <div className={styles.error} role="alert">
        <p>{state.message}</p>
        <button type="button" className={styles.retry} onClick={onRetry}>
          Try searching again
        </button>
      </div>
      <div className={styles.unavailable}>
        <p>Location search is currently unavailable.</p>
        {typed && (
          <button type="button" className={`button button-secondary ${styles.manual}`} onClick={onUseTyped}>
            Continue with &quot;{typed}&quot;
          </button>
        )}
        <p className="field-hint">{hint}</p>
      </div>
    </>
  );
}
