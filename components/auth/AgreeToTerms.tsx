import Link from "next/link";

/** Said before an account is created (registration, and partner B's join form). */
export function AgreeToTerms() {
  return (
    <p className="field-hint">
      By creating an account you agree to the <Link href="/terms">Terms</Link> and the <Link href="/privacy">Privacy notice</Link>.
    </p>
  );
}
