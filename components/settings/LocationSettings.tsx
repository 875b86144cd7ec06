"use client";

import { useId, useRef, useState } from "react";
import { useWatch } from "react-hook-form";
import { saveCouplePlaceAction, savePrivacyAction, saveVisibilityAction } from "@/app/(app)/settings/actions";
import { useZodForm } from "@/components/forms/useZodForm";
import { LocationSearch, type ChoiceOutcome } from "@/components/locations/LocationSearch";
import { privacyPreview } from "@/lib/couples/rules";
import { POINT_PREVIEWS, PRIVACY_LABELS, PRIVACY_LEVELS, type PrivacyLevel } from "@/lib/locations/privacy";
import { LOCATION_REQUIRED_MESSAGE } from "@/lib/locations/rules";
import type { LocationSettings as Settings } from "@/lib/settings/queries";
import type { Prediction } from "@/lib/places/types";
import { StatusLine } from "./StatusLine";
import type { Status } from "./useSettingsSave";
import styles from "./settings.module.css";
import { reach } from "@/lib/transport/actions";

/** What each level shows others; the spec names the levels, these lines are ours. */
const LEVEL_HINTS: Record<PrivacyLevel, string> = {
  full: "the place you chose",
  city: "your city, region and country",
  region: "your region and country",
  country: "your country only",
  hidden: "no location at all",
};

// The level's check loads on its first save, so the page's first paint ships no zod.
const loadPrivacySchema = () => import("@/lib/locations/schemas").then((schemas) => schemas.privacyFormSchema);

/** 'Location and privacy': the couple's place, how precisely others see it, and 'Show us in the directory'. Each part is saved on its own. */
export function LocationSettings({ initial }: { initial: Settings }) {
  const id = useId();
  const [place, setPlace] = useState(initial.place);
  const [changing, setChanging] = useState(initial.place === null);
  const [processing, setProcessing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [placeStatus, setPlaceStatus] = useState<Status>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const changeRef = useRef<HTMLButtonElement>(null);

  const [savedLevel, setSavedLevel] = useState(initial.privacyLevel);
  const [levelStatus, setLevelStatus] = useState<Status>(null);
  const {
    register,
    handleSubmit,
    control,
    formState: { isSubmitting: levelBusy },
  } = useZodForm(loadPrivacySchema, { privacyLevel: initial.privacyLevel }, "on-submit");
  const level = useWatch({ control, name: "privacyLevel" });

  const [visible, setVisible] = useState(initial.isVisible);
  const [visibleBusy, setVisibleBusy] = useState(false);
  const [visibleStatus, setVisibleStatus] = useState<Status>(null);

  const choose = async (prediction: Prediction, sessionToken: string | undefined): Promise<ChoiceOutcome> => {
    setNotice(null);
    setProcessing(true);
    const result = await reach(() => saveCouplePlaceAction(prediction.place_id, sessionToken));
    setProcessing(false);
    if (!result.ok) {
      setNotice(result.fieldErrors?.placeId ?? result.message);
      return result.code === "VALIDATION_ERROR" || result.code === "INVALID_LOCATION_DATA" ? "refused" : "failed";
    }
    setPlace(result.place);
    setChanging(false);
    setPlaceStatus({ tone: "success", text: "Location saved." });
    requestAnimationFrame(() => changeRef.current?.focus());
    return "confirmed";
  };

  const saveLevel = handleSubmit(async ({ privacyLevel }) => {
    setLevelStatus(null);
    const result = await reach(() => savePrivacyAction(privacyLevel));
    if (!result.ok) return setLevelStatus({ tone: "error", text: result.message });
    setSavedLevel(result.privacyLevel);
    setLevelStatus({ tone: "success", text: "Privacy level saved." });
  });

  const toggleVisible = async (next: boolean) => {
    setVisible(next);
    setVisibleBusy(true);
    setVisibleStatus(null);
    const result = await reach(() => saveVisibilityAction(next));
    setVisibleBusy(false);
    if (!result.ok) {
      setVisible(!next);
      return setVisibleStatus({ tone: "error", text: result.message });
    }
    setVisibleStatus({
      tone: "success",
      text: result.isVisible ? "Other couples can find you again." : "You are hidden from other couples.",
    });
  };

  return (
    <>
      <section className={styles.section} aria-labelledby={`${id}-place`}>
        <h2 id={`${id}-place`}>Your place</h2>
        {changing ? (
          <>
            <LocationSearch
              label="Location"
              initialQuery=""
              processing={processing}
              onChoose={choose}
              onUseTyped={() => setNotice(LOCATION_REQUIRED_MESSAGE)}
              onTyping={() => setNotice(null)}
              notice={notice}
              inputRef={inputRef}
            />
            {place && (
              <button
                type="button"
                className="button button-secondary"
                onClick={() => {
                  setChanging(false);
                  setNotice(null);
                  requestAnimationFrame(() => changeRef.current?.focus());
                }}
              >
                Keep {place.displayLocation}
              </button>
            )}
          </>
        ) : (
          <div className={styles.actions}>
            <p className={styles.place}>{place?.displayLocation}</p>
            <button
              ref={changeRef}
              type="button"
              className="button button-secondary"
              onClick={() => {
                setChanging(true);
                setPlaceStatus(null);
                requestAnimationFrame(() => inputRef.current?.focus());
              }}
            >
              Change
            </button>
          </div>
        )}
        <StatusLine status={placeStatus} />
      </section>

      <section className={styles.section} aria-labelledby={`${id}-privacy`}>
        <h2 id={`${id}-privacy`}>Who sees your place</h2>
        <form onSubmit={saveLevel}>
          <fieldset disabled={levelBusy}>
            <legend>Location privacy</legend>
            <div className={styles.choices}>
              {PRIVACY_LEVELS.map((value) => (
                <label key={value} className="choice">
                  <input type="radio" value={value} defaultChecked={initial.privacyLevel === value} {...register("privacyLevel")} />
                  <span>
                    {PRIVACY_LABELS[value]} <span className="muted">({LEVEL_HINTS[value]})</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className={styles.preview} aria-live="polite">
            <p data-testid="privacy-preview">{privacyPreview(place, level)}</p>
            <p className={styles.previewPoint} data-testid="privacy-point">
              {place ? POINT_PREVIEWS[level] : POINT_PREVIEWS.hidden}
            </p>
          </div>
          <div className={styles.actions}>
            <button type="submit" className="button button-primary" disabled={levelBusy || level === savedLevel}>
              {levelBusy ? "Saving..." : "Save privacy level"}
            </button>
          </div>
          <StatusLine status={levelStatus} />
        </form>
      </section>

      <section className={styles.section} aria-labelledby={`${id}-visible`}>
        <h2 id={`${id}-visible`}>Directory</h2>
        <label className="choice">
          <input
            type="checkbox"
            role="switch"
            checked={visible}
            disabled={visibleBusy}
            aria-describedby={`${id}-visible-hint`}
            onChange={(event) => void toggleVisible(event.target.checked)}
          />
          <span>Show us in the directory</span>
        </label>
        <p id={`${id}-visible-hint`} className="field-hint">
          When this is off, other couples can no longer find you in the directory or among couples nearby, open your couple profile, see
          your place or mention you. Your forum posts and replies stay visible, and you can still use everything yourselves.
        </p>
        <StatusLine status={visibleStatus} />
      </section>
    </>
  );
}
