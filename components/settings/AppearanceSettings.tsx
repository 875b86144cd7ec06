"use client";

import { THEME_CHOICES, useThemeChoice } from "@/components/layout/useThemeChoice";
import styles from "./settings.module.css";

/** Light, dark or the device's theme: applied and stored (this browser) the moment it is chosen, like the navigation's toggle. */
export function AppearanceSettings() {
  const { choice, choose } = useThemeChoice();
  return (
    <section className={styles.section} aria-labelledby="appearance-title">
      <h2 id="appearance-title">Theme</h2>
      <fieldset aria-describedby="appearance-hint">
        <legend>Choose how Two of Us looks</legend>
        <div className={styles.choices}>
          {THEME_CHOICES.map((option) => (
            <label key={option.value} className="choice">
              <input
                type="radio"
                name="theme"
                value={option.value}
                checked={choice === option.value}
                disabled={choice === null}
                onChange={() => choose(option.value)}
              />
              <span>
                {option.label}
                {"hint" in option && <span className="muted"> ({option.hint})</span>}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <p id="appearance-hint" className="field-hint">
        Your choice applies at once and is remembered on this device.
      </p>
    </section>
  );
}
