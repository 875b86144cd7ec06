"use client";

import { useId, useState, type ReactNode } from "react";
import { togglePick } from "@/lib/onboarding/picks";
import styles from "./ChipPicker.module.css";

export type ChipOption = { value: string; label: string; description?: string };
type Categories = Record<string, ChipOption[]>;

/** Open at first: the first category and every one that already holds a pick (a restored draft). */
const initiallyOpen = (categories: Categories, value: string[]) =>
  new Set(
    Object.entries(categories).flatMap(([name, items], index) =>
      index === 0 || items.some((item) => value.includes(item.value)) ? [name] : [],
    ),
  );

type Props = {
  /** The look: interests (compact, in categories) or styles (a card per option). */
  kind: "interest" | "style";
  legend: string;
  /** The checkboxes' form name. */
  name: string;
  hint: ReactNode;
  /** Announced on every change (role=status) and read with the group. */
  count?: ReactNode;
  /** Shown when a pick beyond `max` is tried, until the picks change again. */
  limitMessage?: string;
  max: number;
  value: string[];
  onChange(values: string[]): void;
  error?: string;
  disabled?: boolean;
} & (
  | { options: ChipOption[]; categories?: never }
  /** Options in collapsible categories (native <details>, keyboard-ready). */
  | { categories: Categories; options?: never }
);

/**
 * A group of checkboxes with at most `max` picks. At the limit the other boxes are marked
 * disabled but stay focusable (aria-disabled), so keyboard users still find and hear them; a
 * further pick is ignored.
 */
export function ChipPicker({
  kind,
  legend,
  name,
  hint,
  count,
  limitMessage,
  max,
  value,
  onChange,
  error,
  disabled,
  options,
  categories,
}: Props) {
  const id = useId();
  const [triedBeyond, setTriedBeyond] = useState(false);
  const [open, setOpen] = useState(() => (categories ? initiallyOpen(categories, value) : new Set<string>()));
  const full = value.length >= max;
  const describedBy = [`${id}-hint`, count !== undefined && `${id}-count`, error && `${id}-error`].filter(Boolean).join(" ");

  const toggleCategory = (category: string, isOpen: boolean) =>
    setOpen((current) => {
      if (current.has(category) === isOpen) return current;
      const next = new Set(current);
      if (isOpen) next.add(category);
      else next.delete(category);
      return next;
    });

  const list = (items: ChipOption[]) => (
    <ul className={styles.options}>
      {items.map((item) => {
        const checked = value.includes(item.value);
        const locked = full && !checked;
        return (
          <li key={item.value}>
            <label className={[styles.option, checked && styles.checked, locked && styles.locked].filter(Boolean).join(" ")}>
              <input
                type="checkbox"
                name={name}
                value={item.value}
                checked={checked}
                aria-disabled={locked || undefined}
                aria-describedby={item.description ? `${id}-${item.value}` : undefined}
                onChange={() => {
                  setTriedBeyond(locked);
                  onChange(togglePick(value, item.value, max));
                }}
              />
              {item.description ? (
                <span className={styles.text}>
                  <span className={styles.name}>{item.label}</span>
                  <span id={`${id}-${item.value}`} className={styles.description}>
                    {item.description}
                  </span>
                </span>
              ) : (
                item.label
              )}
            </label>
          </li>
        );
      })}
    </ul>
  );

  return (
    // Refused, the group is the control a refused submit focuses (useZodForm finds it by aria-invalid;
    // a box inside may be in a closed category): focused, it reads its legend, hint, count and error.
    <fieldset
      className={`${styles.picker} ${styles[kind]}`}
      disabled={disabled}
      aria-describedby={describedBy}
      aria-invalid={error ? true : undefined}
      tabIndex={error ? -1 : undefined}
    >
      <legend className={styles.legend}>{legend}</legend>
      <p id={`${id}-hint`} className="field-hint">
        {hint}
      </p>
      {count !== undefined && (
        <p id={`${id}-count`} className={styles.count} role="status">
          {count}
        </p>
      )}
      {categories
        ? Object.entries(categories).map(([category, items]) => {
            const picked = items.filter((item) => value.includes(item.value)).length;
            return (
              <details
                key={category}
                className={styles.category}
                open={open.has(category)}
                onToggle={(event) => toggleCategory(category, event.currentTarget.open)}
              >
                <summary className={styles.summary}>
                  <span>{category}</span>
                  {picked > 0 && <span className={styles.categoryCount}>{picked} selected</span>}
                </summary>
                {list(items)}
              </details>
            );
          })
        : list(options)}
      {limitMessage !== undefined && (
        <p className={styles.limit} role="status">
          {full && triedBeyond ? limitMessage : ""}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
