"use client";

import { useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from "react";
import { SEARCH_MAX_QUERY } from "@/lib/locations/rules";
import type { Prediction } from "@/lib/places/types";
import { LOCATION_TIP } from "./ConfirmedLocation";
import { LocationNotices } from "./LocationNotices";
import { ManualEntry } from "./ManualEntry";
import { useLocationSearch } from "./useLocationSearch";
import styles from "./LocationAutocomplete.module.css";

/** How choosing a suggestion ended; after "failed" the typed text comes back for another try. */
export type ChoiceOutcome = "confirmed" | "refused" | "failed";

type LocationSearchProps = {
  label: string;
  /** The text the input starts with (a location typed by hand, being changed). */
  initialQuery: string;
  /** True while a chosen suggestion is being saved ('Processing location...'). */
  processing: boolean;
  /** `sessionToken`: the search session this pick ends, for the lookup of the place's details. */
  onChoose(prediction: Prediction, sessionToken: string | undefined): Promise<ChoiceOutcome>;
  /** Without it, a place must be chosen from the suggestions: no typing by hand. */
  onUseTyped?(text: string): void;
  /** What typing by hand means here, under 'Continue with ...' (onboarding's: the location can be changed in settings). */
  manualHint?: string;
  /** Typing starts over: the last choice's notice goes. */
  onTyping(): void;
  notice: string | null;
  error?: string;
  inputRef: RefObject<HTMLInputElement | null>;
};

/**
 * The location search (spec sections 2, 4, 5): an ARIA 1.2 combobox over the public search, with
 * keyboard use, and typing the location by hand when search finds nothing or is down.
 */
export function LocationSearch({
  label,
  initialQuery,
  processing,
  onChoose,
  onUseTyped,
  manualHint,
  onTyping,
  notice,
  error,
  inputRef,
}: LocationSearchProps) {
  const id = useId();
  const ids = { input: `${id}-input`, list: `${id}-list`, title: `${id}-title`, hint: `${id}-hint`, error: `${id}-error` };
  const { state, prepare, schedule, retry, reset, endSession } = useLocationSearch();
  const [query, setQuery] = useState(initialQuery);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // The typed place, taken, removes the button that had focus: focus goes back to the input once
  // rendered, so it reads what the form said of that place (its error, by aria-describedby).
  const refocus = useRef(false);
  useEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    inputRef.current?.focus();
  });

  const predictions = state.kind === "results" || state.kind === "searching" ? state.predictions : [];
  const expanded = open && predictions.length > 0 && !processing;
  const typed = query.trim();

  const choose = async (prediction: Prediction) => {
    const before = query;
    setOpen(false);
    setQuery(prediction.description);
    if ((await onChoose(prediction, endSession())) === "failed") setQuery(before);
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

  const status = processing
    ? "Processing location..."
    : state.kind === "searching"
      ? "Searching..."
      : expanded
        ? `${predictions.length} ${predictions.length === 1 ? "suggestion" : "suggestions"} available`
        : state.kind === "empty"
          ? "No locations found. Try a different search term."
          : "";

  return (
    <div
      className="field"
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <label htmlFor={ids.input}>{label}</label>
      <div className={styles.combobox}>
        <input
          ref={inputRef}
          id={ids.input}
          type="text"
          role="combobox"
          className={styles.input}
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
          aria-describedby={[ids.hint, error ? ids.error : null].filter(Boolean).join(" ")}
          onChange={(event) => {
            setQuery(event.target.value);
            onTyping();
            setActive(-1);
            setOpen(true);
            schedule(event.target.value);
          }}
          onKeyDown={onKeyDown}
          onFocus={prepare}
        />
        <div className={styles.dropdown} hidden={!expanded}>
          <p id={ids.title} className={styles.dropdownTitle}>
            Select Location
          </p>
          <ul id={ids.list} role="listbox" aria-labelledby={ids.title} className={styles.options}>
            {predictions.map((prediction, index) => (
              <li
                key={prediction.place_id}
                id={`${ids.list}-${index}`}
                role="option"
                aria-selected={index === active}
                className={styles.option}
                // Keeps focus in the input, so the list does not close before the click lands.
                onMouseDown={(event) => event.preventDefault()}
                onMouseEnter={() => setActive(index)}
                onClick={() => void choose(prediction)}
              >
                <span className={styles.main}>{prediction.structured_formatting.main_text}</span>
                {prediction.structured_formatting.secondary_text && (
                  <span className={styles.secondary}>{prediction.structured_formatting.secondary_text}</span>
                )}
              </li>
            ))}
          </ul>
        </div>
      </div>
      <p className={styles.status} role="status">
        {status}
      </p>
      {!processing && onUseTyped && (
        <ManualEntry
          state={state}
          typed={typed}
          hint={manualHint}
          onUseTyped={() => {
            if (!typed) return;
            // The place is settled as typed: the search's 'unavailable' or 'nothing found' has said its piece.
            refocus.current = true;
            reset();
            onUseTyped(typed);
          }}
          onRetry={() => {
            inputRef.current?.focus();
            retry(query);
          }}
        />
      )}
      <p id={ids.hint} className="field-hint">
        {LOCATION_TIP}
      </p>
      <LocationNotices notice={notice} error={error} errorId={ids.error} />
    </div>
  );
}
