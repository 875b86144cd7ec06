"use client";

import { useState, type InputHTMLAttributes, type ReactNode } from "react";
import { FieldFrame } from "./FieldFrame";
import styles from "./Field.module.css";

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  error?: string;
  hint?: ReactNode;
};

/** A labelled input whose error and hint are announced with it; a password's can be shown. */
export function Field({ label, error, hint, id, type = "text", ...input }: FieldProps) {
  const [revealed, setRevealed] = useState(false);
  const isPassword = type === "password";
  return (
    <FieldFrame label={label} error={error} hint={hint} id={id}>
      {(control) => (
        <div className={isPassword ? styles.withAction : undefined}>
          <input {...control} type={isPassword && revealed ? "text" : type} {...input} />
          {isPassword && (
            <button type="button" className={styles.action} onClick={() => setRevealed((value) => !value)}>
              {/* Its name is what it shows ('Show password', then 'Hide password'), as voice control says it. */}
              {revealed ? "Hide" : "Show"}
              <span className="visually-hidden"> password</span>
            </button>
          )}
        </div>
      )}
    </FieldFrame>
  );
}
