import { passwordStrength } from "@/lib/auth/rules";

/** The register form's meter: Strong / Weak / Too Short. */
export function PasswordStrength({ password }: { password: string }) {
  if (!password) return null;
  const strength = passwordStrength(password);
  const tone = strength === "Strong" ? "strong" : strength === "Weak" ? "weak" : "short";
  return (
    <p className={`strength strength-${tone}`} aria-live="polite">
      <span className="strength-bar" aria-hidden="true" />
      Password strength: <strong>{strength}</strong>
    </p>
  );
}
