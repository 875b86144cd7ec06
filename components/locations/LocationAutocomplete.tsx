"use client";

import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { LocationRefusedError, normalizeLocation } from "@/lib/locations/client/api";
import {
  clearSavedLocation,
  LocationStorageError,
  SAVE_LOCATION_FAILED,
  saveLocation,
  toOnboardingLocation,
  type OnboardingLocation,
} from "@/lib/locations/client/saved-location";
import type { Prediction } from "@/lib/places/types";
import { ConfirmedLocation } from "./ConfirmedLocation";
import { LocationSearch, type ChoiceOutcome } from "./LocationSearch";
import styles from "./LocationAutocomplete.module.css";

type Props = {
  userId: string;
  /** The confirmed location, or null. */
  value: OnboardingLocation | null;
  onChange(location: OnboardingLocation | null): void;
  /** True while a selection is being saved ('Processing location...'). */
  onBusyChange?(busy: boolean): void;
  error?: string;
  label?: string;
};

const subscribeToNothing = () => () => {};

/**
 * Location with place autocomplete (spec sections 2, 4, 5, 8): the saved location first; else the
 * search, where a chosen place is saved on the server as the user's location (its privacy level
 * left as the user set it) and kept in this tab; or a location typed by hand.
 */
export function LocationAutocomplete({ userId, value, onChange, onBusyChange, error, label = "Location" }: Props) {
  // Storage exists only in the browser: the server (and hydration) render the loading state.
  const inBrowser = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  const [processing, setProcessing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  /** What the search starts with after 'Change': a location typed by hand comes back to be edited. */
  const [initialQuery, setInitialQuery] = useState("");
  const inputRef = useRef<HTMLInputElement>(null);
  const changeRef = useRef<HTMLButtonElement>(null);
  /** Where focus goes once the view switched (the element it was on is gone). */
  const focusNext = useRef<"input" | "change" | null>(null);
  useEffect(() => {
    if (focusNext.current === "input") inputRef.current?.focus();
    if (focusNext.current === "change") changeRef.current?.focus();
    focusNext.current = null;
  });

  const confirm = (location: OnboardingLocation) => {
    focusNext.current = "change";
    onChange(location);
  };

  const choose = async (prediction: Prediction, sessionToken: string | undefined): Promise<ChoiceOutcome> => {
    setNotice(null);
    setProcessing(true);
    onBusyChange?.(true);
    let location: OnboardingLocation | null = null;
    let outcome: ChoiceOutcome = "confirmed";
    try {
      location = toOnboardingLocation(
        prediction,
        await normalizeLocation({ placeId: prediction.place_id, entityType: "user", entityId: userId, sessionToken }),
      );
    } catch (failure) {
      const refused = failure instanceof LocationRefusedError;
      // A refused place is unusable and its stored copy goes too; any other failure leaves the typed text for another try.
      if (refused) clearSavedLocation(userId);
      setNotice(refused ? failure.message : SAVE_LOCATION_FAILED);
      outcome = refused ? "refused" : "failed";
    }
    setProcessing(false);
    onBusyChange?.(false);
    if (!location) {
      focusNext.current = "input";
      return outcome;
    }
    try {
      saveLocation(userId, location);
    } catch (failure) {
      if (!(failure instanceof LocationStorageError)) throw failure;
      // Saved on the server and kept for this visit; the user is told why it will not survive a reload.
      setNotice(failure.message);
    }
    confirm(location);
    return outcome;
  };

  const change = () => {
    clearSavedLocation(userId);
    setInitialQuery(value && !value.placeId ? value.location : "");
    setNotice(null);
    focusNext.current = "input";
    onChange(null);
  };

  if (!inBrowser && value === null) {
    return (
      <div className="field">
        <p className={styles.label}>{label}</p>
        <p className={styles.status} role="status">
          Loading location...
        </p>
      </div>
    );
  }

  if (value) return <ConfirmedLocation label={label} value={value} onChange={change} notice={notice} error={error} changeRef={changeRef} />;

  return (
    <LocationSearch
      label={label}
      initialQuery={initialQuery}
      processing={processing}
      // Typed by hand: no place id, so the step-1 screen asks for a suggestion instead.
      onUseTyped={(typed) => confirm({ location: typed, placeId: "" })}
      onChoose={choose}
      onTyping={() => setNotice(null)}
      notice={notice}
      error={error}
      inputRef={inputRef}
    />
  );
}
