import { useId, type Ref } from "react";
import { placeName } from "@/lib/locations/place-name";
import { DEFAULT_PRIVACY_LEVEL, PRIVACY_LABELS } from "@/lib/locations/privacy";
import type { OnboardingLocation } from "@/lib/locations/client/saved-location";
import { LocationNotices } from "./LocationNotices";
import styles from "./LocationAutocomplete.module.css";

export const LOCATION_TIP = "Tip: Select from suggestions for better location matching";

type ConfirmedLocationProps = {
  label: string;
  value: OnboardingLocation;
  onChange(): void;
  notice: string | null;
  error?: string;
  /** The 'Change' button, which gets focus once a place is confirmed. */
  changeRef: Ref<HTMLButtonElement>;
};

/** The confirmed location (spec section 2): city and country, 'Verified location selected' with its privacy level, and 'Change'. */
export function ConfirmedLocation({ label, value, onChange, notice, error, changeRef }: ConfirmedLocationProps) {
  const id = useId();
  const verified = value.placeId !== "";
  const place = placeName(value.city, value.country) || placeName(value.location);
  return (
    <div className="field" role="group" aria-labelledby={`${id}-label`}>
      <p id={`${id}-label`} className={styles.label}>
        {label}
      </p>
      <div className={styles.confirmed}>
        <div id={`${id}-place`} className={styles.confirmedText}>
          <p className={styles.place}>{place}</p>
          {place !== placeName(value.location) && <p className={styles.detail}>{placeName(value.location)}</p>}
          {verified ? (
            <p className={styles.verified}>
              <span aria-hidden="true">✓ </span>
              Verified location selected{" "}
              <span className={styles.privacy}>{PRIVACY_LABELS[value.privacyLevel ?? DEFAULT_PRIVACY_LEVEL]}</span>
            </p>
          ) : (
            <p className="field-hint">{LOCATION_TIP}</p>
          )}
        </div>
        <button
          ref={changeRef}
          type="button"
          className={`button button-secondary ${styles.change}`}
          onClick={onChange}
          aria-describedby={error ? `${id}-place ${id}-error` : `${id}-place`}
        >
          Change
        </button>
      </div>
      <LocationNotices notice={notice} error={error} errorId={`${id}-error`} />
    </div>
  );
}
