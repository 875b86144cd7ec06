"use client";

import { useId, useState } from "react";
import { INTERESTS_MAX, INTERESTS_MIN } from "@/lib/interests/rules";
import { togglePick } from "@/lib/onboarding/picks";

type Categories = Record<string, { value: string; label: string }[]>;

/** Open at first: the first category and every one that already holds a pick (a restored draft). */
const initiallyOpen = (categories: Categories, value: string[]) =>
  new Set(Object.entries(categories).flatMap(([name, items], index) => (index === 0 || items.some((item) => value.includes(item.value)) ? [name] : [])));

/**
 * Interests in collapsible categories (native <details>, keyboard-ready), 5 to 25 of them. At 25
 * the other boxes are marked disabled and their picks ignored; they stay focusable so they are heard.
 */
export function InterestPicker({
  categories,
  value,
  onChange,
  error,
  disabled,
}: {
  categories: Categories;
  value: string[];
  onChange(values: string[]): void;
  error?: string;
  disabled?: boolean;
}) {
  const id = useId();
  const [open, setOpen] = useState(() => initiallyOpen(categories, value));
  const total = Object.values(categories).reduce((sum, items) => sum + items.length, 0);
  const full = value.length >= INTERESTS_MAX;
  const toggleCategory = (name: string, isOpen: boolean) =>
    setOpen((current) => {
      if (current.has(name) === isOpen) return current;
      const next = new Set(current);
      if (isOpen) next.add(name);
      else next.delete(name);
      return next;
    });
  return (
    <fieldset className="interest-picker" disabled={disabled} aria-describedby={`${id}-hint ${id}-count${error ? ` ${id}-error` : ""}`}>
      <legend className="interest-legend">Interests</legend>
      <p id={`${id}-hint`} className="field-hint">
        Select {INTERESTS_MIN}-{INTERESTS_MAX} interests
      </p>
      <p id={`${id}-count`} className="interest-count" role="status">
        {value.length} of {total} interests selected
      </p>
      {Object.entries(categories).map(([name, items]) => {
        const picked = items.filter((item) => value.includes(item.value)).length;
        return (
          <details key={name} className="interest-category" open={open.has(name)} onToggle={(event) => toggleCategory(name, event.currentTarget.open)}>
            <summary className="interest-summary">
              <span className="interest-category-name">{name}</span>
              {picked > 0 && <span className="interest-category-count">{picked} selected</span>}
            </summary>
            <ul className="interest-options">
              {items.map((item) => {
                const checked = value.includes(item.value);
                const locked = full && !checked;
                return (
                  <li key={item.value}>
                    <label className={`interest-option${checked ? " interest-option-checked" : ""}${locked ? " interest-option-locked" : ""}`}>
                      <input
                        type="checkbox"
                        name="interests"
                        value={item.value}
                        checked={checked}
                        aria-disabled={locked || undefined}
                        onChange={() => {
                    onChange(togglePick(value, item.value, INTERESTS_MAX));
                  }}
                      />
                      {item.label}
                    </label>
                  </li>
                );
              })}
            </ul>
          </details>
        );
      })}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
