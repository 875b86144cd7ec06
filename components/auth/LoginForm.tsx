"use client";

import Link from "next/link";
import { useActionState, useEffect, useState } from "react";
import { signInAction, type SignInState } from "@/app/(auth)/actions";
import { Alert } from "@/components/ui/Alert";
import { Field } from "@/components/ui/Field";

type LoginFormProps = { from: string; signedIn: boolean; notice: string | null; prefillEmail: string };

export function LoginForm({ from, signedIn, notice, prefillEmail }: LoginFormProps) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInAction, null);
  const [email, setEmail] = useState(prefillEmail);
  // message and email arrive as query parameters once: shown, then tidied from the address bar.
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    if (params.has("message") || params.has("email")) {
      params.delete("message");
      params.delete("email");
      const query = params.toString();
      window.history.replaceState(null, "", `${window.location.pathname}${query ? `?${query}` : ""}`);
    }
  }, []);

  return (
    <form action={action} noValidate>
      {notice && <Alert tone="success">{notice}</Alert>}
      {state && !state.ok && <Alert tone="error">{state.message}</Alert>}
      {state && !state.ok && state.code === "EMAIL_NOT_CONFIRMED" && (
        <p className="form-note">
          <Link href={`/verify-email?${new URLSearchParams({ email })}`}>Send the verification email again</Link>
        </p>
      )}
      <input type="hidden" name="from" value={from} />
      <Field label="Email" name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      <Field label="Password" name="password" type="password" autoComplete="current-password" required />
      <p className="form-aside">
        <Link href="/forgot-password">Forgot your password?</Link>
      </p>
      <button type="submit" className="button button-primary button-block" disabled={pending}>
        {pending ? "Signing you in..." : "Let's Go!"}
      </button>
      <p className="auth-footer">
        New here? <Link href="/register?clear=true">Create an account</Link>
        {signedIn && (
          <>
            {" · "}
            <Link href="/signout">Sign out</Link>
          </>
        )}
      </p>
    </form>
  );
}
