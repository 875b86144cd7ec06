type Props = {
  /** The action's words, and its words while it runs ("Sending..."). */
  label: string;
  busyLabel?: string;
  busy?: boolean;
  /** Absent, the action submits the form it sits in. */
  onAction?: () => void;
  /** Why the action cannot run yet besides running already (a photo uploading, the camera starting). */
  disabled?: boolean;
  tone?: "primary" | "danger";
  /** Absent, there is no way back (a form that is the page). */
  onCancel?: () => void;
  cancelLabel?: string;
  /** A confirmation opens on the choice that changes nothing (in a Dialog, which focuses it). */
  focusCancel?: boolean;
};

/**
 * The end of every form and confirmation: the action first, then the way back. While the action
 * runs both wait (a dialog still closes with Escape or its ×), so a form is not left half-saved.
 */
export function FormActions({
  label,
  busyLabel,
  busy = false,
  onAction,
  disabled = false,
  tone = "primary",
  onCancel,
  cancelLabel = "Cancel",
  focusCancel = false,
}: Props) {
  return (
    <div className="form-actions">
      <button type={onAction ? "button" : "submit"} className={`button button-${tone}`} onClick={onAction} disabled={busy || disabled}>
        {busy && busyLabel ? busyLabel : label}
      </button>
      {onCancel && (
        <button
          type="button"
          className="button button-secondary"
          onClick={onCancel}
          disabled={busy}
          data-autofocus={focusCancel || undefined}
        >
          {cancelLabel}
        </button>
      )}
    </div>
  );
}
