import type { Status } from "./useSettingsForm";

/** A section's outcome, announced politely; an error in the error colour. */
export function StatusLine({ status }: { status: Status }) {
  return (
    <p className={`settings-status${status?.tone === "error" ? " settings-status-error" : ""}`} role="status">
      {status?.text ?? ""}
    </p>
  );
}
