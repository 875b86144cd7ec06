"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { forgotPasswordAction } from "@/app/(auth)/actions";
import { Alert } from "@/components/ui/Alert";
import { Field } from "@/components/ui/Field";
import { AuthFooter } from "@/components/ui/AuthCard";

export function ForgotPasswordForm() {
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The schema (and zod) load on the first submit, not with the page.
    const { emailSchema } = await import("@/lib/auth/schemas");
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) return setError(parsed.error.issues[0]!.message);
    setError(null);
    setFailure(null);
    setPending(true);
    const result = await forgotPasswordAction(parsed.data);
    setPending(false);
    if (result.ok) setSent(result.message);
    else setFailure(result.message);
  };

  if (sent) {
    return (
      <>
        <Alert tone="success">{sent}</Alert>
        <AuthFooter>
          <Link href="/login">Back to sign in</Link>
        </AuthFooter>
      </>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      {failure && <Alert tone="error">{failure}</Alert>}
      <Field
        label="Email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={error ?? undefined}
      />
      <button type="submit" className="button button-primary button-block" disabled={pending}>
        {pending ? "Sending..." : "Send Reset Link"}
      </button>
      <AuthFooter>
        Remembered it? <Link href="/login">Sign in</Link>
      </AuthFooter>
    </form>
  );
}
