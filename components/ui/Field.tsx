"use client";

import { useId, useState, type InputHTMLAttributes, type ReactNode } from "react";
import styles from "./Field.module.css";

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  error?: string;
  hint?: ReactNode;
};

/** A labelled input whose error and hint are announced with it (aria-describedby). */
export function Field({ label, error, hint, id, type = "text", ...input }: FieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const [revealed, setRevealed] = useState(false);
  const isPassword = type === "password";
  const describedBy = [error ? `${inputId}-error` : null, hint ? `${inputId}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <div className={isPassword ? styles.withAction : undefined}>
        <input
          id={inputId}
          type={isPassword && revealed ? "text" : type}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...input}
        />
        {isPassword && (
          <button type="button" className={styles.action} onClick={() => setRevealed((value) => !value)}>
            {/* Its name is what it shows ('Show password', then 'Hide password'), as voice control says it. */}
            {revealed ? "Hide" : "Show"}
            <span className="visually-hidden"> password</span>
          </button>
        )}
      </div>
      {hint && (
        <div id={`${inputId}-hint`} className="field-hint">
          {hint}
        </div>
      )}
      {error && (
        <p id={`${inputId}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
