import { CheckIcon } from "@/components/ui/icons";
import { PASSWORD_REQUIREMENTS, passwordStrength } from "@/lib/auth/rules";
import styles from "./PasswordStrength.module.css";

/** "Password must contain at least one number" reads "At least one number" in a checklist. */
const requirementLabel = (message: string) => {
  const rest = message.replace(/^Password must (be|contain) /, "");
  return rest.charAt(0).toUpperCase() + rest.slice(1);
};

/**
 * The password meter: Strong / Weak / Too Short. With `checklist` (the partner's join form) every
 * requirement is listed and ticked as it is met, and the meter says only Strong or Weak.
 */
export function PasswordStrength({ password, checklist = false }: { password: string; checklist?: boolean }) {
  const strength = passwordStrength(password);
  const shown = checklist && strength === "Too Short" ? "Weak" : strength;
  const tone = shown === "Strong" ? styles.strong : shown === "Weak" ? styles.weak : styles.short;
  return (
    <>
      {password && (
        <p className={`${styles.strength} ${tone}`} aria-live="polite">
          <span className={styles.bar} aria-hidden="true" />
          Password strength: <strong>{shown}</strong>
        </p>
      )}
      {checklist && (
        <ul className={styles.checklist} aria-label="Password requirements">
          {PASSWORD_REQUIREMENTS.map((rule) => {
            const met = rule.test(password);
            return (
              <li key={rule.message} className={met ? styles.met : undefined}>
                {met ? (
                  <CheckIcon size={16} />
                ) : (
                  <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
                    <circle cx="8" cy="8" r="3" fill="currentColor" />
                  </svg>
                )}
                {requirementLabel(rule.message)}
                <span className="visually-hidden">{met ? " (met)" : " (not met)"}</span>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
