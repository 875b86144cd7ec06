"use client";

import { useId } from "react";
import { bioCounterText, bioCounterTone, bioHint } from "@/lib/couples/rules";
import styles from "./BioField.module.css";

/** The couple bio with its live counter and encouraging hint (spec section 2, step 2). */
export function BioField({
  value,
  onChange,
  onBlur,
  error,
  disabled,
}: {
  value: string;
  onChange(value: string): void;
  onBlur?(): void;
  error?: string;
  disabled?: boolean;
}) {
  const id = useId();
  const length = value.length;
  const describedBy = [`${id}-counter`, `${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={id}>Bio</label>
      <textarea
        id={id}
        className={styles.input}
        rows={6}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      <div className={styles.meta}>
        {/* The hint changes only at thresholds, so announcing it is not noisy; the counter changes per key and is read on focus. */}
        <p id={`${id}-hint`} className={styles.hint} aria-live="polite">
          {bioHint(length)}
        </p>
        <p id={`${id}-counter`} className={`${styles.counter} ${styles[bioCounterTone(length)]}`}>
          {bioCounterText(length)}
        </p>
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
