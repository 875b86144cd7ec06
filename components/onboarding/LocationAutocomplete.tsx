"use client";

import { useEffect, useId, useLayoutEffect, useRef, useState, useSyncExternalStore, type KeyboardEvent } from "react";
import { LocationRefusedError, normalizeLocation } from "@/lib/locations/client";
import { DEFAULT_PRIVACY_LEVEL, PRIVACY_LABELS } from "@/lib/locations/privacy";
import { SEARCH_MAX_QUERY } from "@/lib/locations/schemas";
import {
  clearSavedLocation,
  loadSavedLocation,
  LocationStorageError,
  saveLocation,
  toOnboardingLocation,
  type OnboardingLocation,
} from "@/lib/onboarding/client/location";
import type { Prediction } from "@/lib/places/types";
import { useLocationSearch } from "./useLocationSearch";

type Props = {
  userId: string;
  /** The confirmed location, or null. */
  value: OnboardingLocation | null;
  onChange(location: OnboardingLocation | null): void;
  /** True while a selection is being normalized ('Processing location...'). */
  onBusyChange?(busy: boolean): void;
  error?: string;
  label?: string;
};

const subscribeToNothing = () => () => {};

const TIP = "Tip: Select from suggestions for better location matching";

/**
 * Location with place autocomplete (spec sections 2, 4, 5): an ARIA 1.2 combobox over the public
 * search, the saved location first, a chosen place normalized on the server (or kept as a basic
 * record when that fails), and typing it by hand when search finds nothing or is down.
 */
export function LocationAutocomplete({ userId, value, onChange, onBusyChange, error, label = "Location" }: Props) {
  const id = useId();
  const ids = { input: `${id}-input`, list: `${id}-list`, title: `${id}-title`, hint: `${id}-hint`, error: `${id}-error`, label: `${id}-label`, place: `${id}-place` };
  const { state, schedule, retry, reset } = useLocationSearch();
  // Storage exists only in the browser: the server (and hydration) render the loading state.
  const inBrowser = useSyncExternalStore(subscribeToNothing, () => true, () => false);
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [processing, setProcessing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const changeRef = useRef<HTMLButtonElement>(null);
  /** Where focus goes once the view switched (the element it was on is gone). */
  const focusNext = useRef<"input" | "change" | null>(null);
  const latest = useRef({ value, onChange });

  useEffect(() => {
    latest.current = { value, onChange };
  });

  // Source order (spec section 4): a saved location is restored before the browser paints the input.
  useLayoutEffect(() => {
    if (latest.current.value !== null) return;
    const saved = loadSavedLocation(userId);
    if (saved) latest.current.onChange(saved);
  }, [userId]);

  useEffect(() => {
    if (focusNext.current === "input") inputRef.current?.focus();
    if (focusNext.current === "change") changeRef.current?.focus();
    focusNext.current = null;
  });

  const predictions = state.kind === "results" || state.kind === "searching" ? state.predictions : [];
  const expanded = open && predictions.length > 0 && !processing;

  const confirm = (location: OnboardingLocation) => {
    focusNext.current = "change";
    setOpen(false);
    reset();
    onChange(location);
  };

  const choose = async (prediction: Prediction) => {
    setOpen(false);
    setQuery(prediction.description);
    setNotice(null);
    setProcessing(true);
    onBusyChange?.(true);
    let location: OnboardingLocation | null;
    try {
      location = toOnboardingLocation(prediction, await normalizeLocation({ placeId: prediction.place_id, entityType: "user", entityId: userId, privacyLevel: DEFAULT_PRIVACY_LEVEL }));
    } catch (failure) {
      if (failure instanceof LocationRefusedError) {
        // The server knows this place is unusable: a basic record would only be refused again on submit.
        clearSavedLocation(userId);
        setNotice(failure.message);
        location = null;
      } else {
        location = toOnboardingLocation(prediction);
      }
    }
    setProcessing(false);
    onBusyChange?.(false);
    if (!location) {
      focusNext.current = "input";
      return;
    }
    try {
      saveLocation(userId, location);
    } catch (failure) {
      if (!(failure instanceof LocationStorageError)) throw failure;
      // Kept for this visit only; the user is told why it will not survive a reload.
      setNotice(failure.message);
    }
    confirm(location);
  };

  // Typed by hand: no place id, so the step-1 screen asks for a suggestion instead.
  const keepTyped = () => {
    const typed = query.trim();
    if (typed) confirm({ location: typed, placeId: "" });
  };

  const change = () => {
    clearSavedLocation(userId);
    setQuery(value && !value.placeId ? value.location : "");
    setNotice(null);
    focusNext.current = "input";
    onChange(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = predictions.length;
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp": {
        if (count === 0 || processing) return;
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        setOpen(true);
        // From nothing highlighted, down starts at the first option and up at the last; both wrap around.
        setActive((current) => (!expanded || current < 0 ? (step === 1 ? 0 : count - 1) : (current + step + count) % count));
        return;
      }
      case "Enter":
        if (!expanded) return;
        // Never submit the surrounding form from an open list.
        event.preventDefault();
        if (active >= 0 && predictions[active]) void choose(predictions[active]);
        return;
      case "Escape":
        if (expanded) {
          event.preventDefault();
          setOpen(false);
        } else if (query) {
          event.preventDefault();
          setQuery("");
          reset();
        }
    }
  };

  if (!inBrowser && value === null) {
    return (
      <div className="field location-field">
        <p className="location-label">{label}</p>
        <p className="location-status" role="status">
          Loading location...
        </p>
      </div>
    );
  }

  if (value) {
    const verified = value.placeId !== "";
    const place = [value.city, value.country].filter(Boolean).join(", ") || value.location;
    return (
      <div className="field location-field" role="group" aria-labelledby={ids.label}>
        <p id={ids.label} className="location-label">
          {label}
        </p>
        <div className="location-confirmed">
          <div id={ids.place} className="location-confirmed-text">
            <p className="location-place">{place}</p>
            {place !== value.location && <p className="location-detail">{value.location}</p>}
            {verified ? (
              <p className="location-verified">
                <span aria-hidden="true">✓ </span>
                Verified location selected <span className="location-privacy">{PRIVACY_LABELS[value.privacyLevel ?? DEFAULT_PRIVACY_LEVEL]}</span>
              </p>
            ) : (
              <p className="field-hint">{TIP}</p>
            )}
          </div>
          <button ref={changeRef} type="button" className="button button-secondary location-change" onClick={change} aria-describedby={ids.place}>
            Change
          </button>
        </div>
        {notice && (
          <p className="location-notice" role="alert">
            {notice}
          </p>
        )}
        {error && (
          <p id={ids.error} className="field-error">
            {error}
          </p>
        )}
      </div>
    );
  }

  const describedBy = [ids.hint, error ? ids.error : null].filter(Boolean).join(" ");
  const typed = query.trim();
  return (
    <div
      className="field location-field"
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <label htmlFor={ids.input}>{label}</label>
      <div className="location-combobox">
        <input
          ref={inputRef}
          id={ids.input}
          type="text"
          role="combobox"
          className="location-input"
          placeholder="Search for a location..."
          autoComplete="off"
          spellCheck={false}
          maxLength={SEARCH_MAX_QUERY}
          value={query}
          readOnly={processing}
          aria-busy={processing || undefined}
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={ids.list}
          aria-activedescendant={expanded && active >= 0 ? `${ids.list}-${active}` : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            setQuery(event.target.value);
            setNotice(null);
            setActive(-1);
            setOpen(true);
            schedule(event.target.value);
          }}
          onKeyDown={onKeyDown}
        />
        <div className="location-dropdown" hidden={!expanded}>
          <p id={ids.title} className="location-dropdown-title">
            Select Location
          </p>
          <ul id={ids.list} role="listbox" aria-labelledby={ids.title} className="location-options">
            {predictions.map((prediction, index) => (
              <li
                key={prediction.place_id}
                id={`${ids.list}-${index}`}
                role="option"
                aria-selected={index === active}
                className="location-option"
                // Keeps focus in the input, so the list does not close before the click lands.
                onMouseDown={(event) => event.preventDefault()}
                onMouseEnter={() => setActive(index)}
                onClick={() => void choose(prediction)}
              >
                <span className="location-main">{prediction.structured_formatting.main_text}</span>
                {prediction.structured_formatting.secondary_text && <span className="location-secondary">{prediction.structured_formatting.secondary_text}</span>}
              </li>
            ))}
          </ul>
        </div>
      </div>
      <p className="location-status" role="status">
        {processing
          ? "Processing location..."
          : state.kind === "searching"
            ? "Searching..."
            : expanded
              ? `${predictions.length} ${predictions.length === 1 ? "suggestion" : "suggestions"} available`
              : state.kind === "empty"
                ? "No locations found. Try a different search term."
                : ""}
      </p>
      {state.kind === "empty" && !processing && (
        <button type="button" className="button button-secondary location-manual" onClick={keepTyped}>
          Use entered location
        </button>
      )}
      {state.kind === "unavailable" && !processing && (
        <>
          <div className="location-error" role="alert">
            <p>{state.message}</p>
            <button type="button" className="location-retry" onClick={() => {
                focusNext.current = "input";
                retry(query);
              }}>
              Try searching again
            </button>
          </div>
          <div className="location-unavailable">
            <p>Location search is currently unavailable.</p>
            {typed && (
              <button type="button" className="button button-secondary location-manual" onClick={keepTyped}>
                Continue with &quot;{typed}&quot;
              </button>
            )}
            <p className="field-hint">You can update your location later in settings.</p>
          </div>
        </>
      )}
      {notice && (
        <p className="location-notice" role="alert">
          {notice}
        </p>
      )}
      <p id={ids.hint} className="field-hint">
        {TIP}
      </p>
      {error && (
        <p id={ids.error} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
