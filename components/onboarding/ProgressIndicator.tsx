import styles from "./ProgressIndicator.module.css";

const STEPS = [
  { step: 1, label: "Individual Profile" },
  { step: 2, label: "Complete Setup" },
] as const;

/**
 * Onboarding's 'step N of 2' with both step names; the current one is marked for assistive
 * technology too. Partner B joins a couple that is set up already: their progress is their one step.
 */
export function ProgressIndicator({ step, onlyStep1 }: { step: 1 | 2; onlyStep1: boolean }) {
  const steps = onlyStep1 ? STEPS.slice(0, 1) : STEPS;
  return (
    <div className={styles.progress}>
      <p className={styles.count}>
        step {step} of {steps.length}
      </p>
      <ol className={styles.steps} aria-label="Onboarding progress">
        {steps.map((item) => {
          const state = item.step === step ? "current" : item.step < step ? "done" : "next";
          return (
            <li
              key={item.step}
              className={state === "next" ? styles.step : `${styles.step} ${styles[state]}`}
              aria-current={state === "current" ? "step" : undefined}
            >
              <span className={styles.marker} aria-hidden="true">
                {state === "done" ? "✓" : item.step}
              </span>
              <span>{item.label}</span>
              {state === "done" && <span className="visually-hidden"> (completed)</span>}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
