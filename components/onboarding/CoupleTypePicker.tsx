"use client";

import { useId, useState } from "react";
import { COUPLE_TYPES, COUPLE_TYPES_MAX, type CoupleType } from "@/lib/couples/rules";
import { togglePick } from "@/lib/onboarding/picks";

/** The spec names the styles but not their descriptions; these are ours. */
const DESCRIPTIONS: Record<CoupleType, string> = {
  global_adventurers: "Passports always ready: you plan the year around the next trip abroad.",
  culture_curators: "Museums, theatre, galleries and live music fill your calendar.",
  mindful_adventurers: "Slow travel, retreats and time in nature keep you both grounded.",
  community_connectors: "You host the dinners, join the clubs and bring people together.",
  culinary_connoisseurs: "New restaurants, cooking classes and wine regions guide your plans.",
  career_climbers: "Ambitious together: you back each other's goals and love to talk shop.",
};

const COUPLE_TYPES_LIMIT_MESSAGE = `You can select up to ${COUPLE_TYPES_MAX} adventure styles`;

/**
 * The adventure styles, up to three. At the limit the other styles are marked disabled but stay
 * focusable (aria-disabled), so keyboard users still find and hear them; trying one of them
 * (a fourth pick) shows the spec's message until the picks change again.
 */
export function CoupleTypePicker({
  value,
  onChange,
  error,
  disabled,
}: {
  value: string[];
  onChange(values: string[]): void;
  error?: string;
  disabled?: boolean;
}) {
  const id = useId();
  const [triedFourth, setTriedFourth] = useState(false);
  const full = value.length >= COUPLE_TYPES_MAX;
  return (
    <fieldset className="style-picker" disabled={disabled} aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}>
      <legend className="style-legend">Adventure styles</legend>
      <p id={`${id}-hint`} className="field-hint">
        Choose up to {COUPLE_TYPES_MAX} ({value.length} selected)
      </p>
      <ul className="style-options">
        {COUPLE_TYPES.map((type) => {
          const checked = value.includes(type.value);
          const locked = full && !checked;
          return (
            <li key={type.value}>
              <label className={`style-option${checked ? " style-option-checked" : ""}${locked ? " style-option-locked" : ""}`}>
                <input
                  type="checkbox"
                  name="coupleTypes"
                  value={type.value}
                  checked={checked}
                  aria-disabled={locked || undefined}
                  aria-describedby={`${id}-${type.value}`}
                  onChange={() => {
                    setTriedFourth(locked);
                    onChange(togglePick(value, type.value, COUPLE_TYPES_MAX));
                  }}
                />
                <span className="style-text">
                  <span className="style-name">{type.label}</span>
                  <span id={`${id}-${type.value}`} className="style-description">
                    {DESCRIPTIONS[type.value]}
                  </span>
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      <p className="style-limit" role="status">
        {full && triedFourth ? COUPLE_TYPES_LIMIT_MESSAGE : ""}
      </p>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
