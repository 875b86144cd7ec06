"use client";

import Link from "next/link";
import { useActionState, useEffect, useState } from "react";
import { signInAction, type SignInState } from "@/app/(auth)/actions";
import { Alert } from "@/components/ui/Alert";
import { Field } from "@/components/ui/Field";
import { hasBrowserSession } from "@/lib/auth/client/api";
import { loginNotice } from "@/lib/auth/login-notices";
import { AuthFooter } from "@/components/ui/AuthCard";
import styles from "./LoginForm.module.css";

const text = (value: string | null, max: number) => (value ?? "").slice(0, max);

/**
 * The page is prerendered, so what depends on the visit is read here after hydration: the query
 * (`from`, a `message` notice, an `email` to prefill) and whether someone is signed in (for the
 * "Sign out" link). A sign-in sent before hydration has no `from` field: the action then reads it
 * from the page's address (the Referer).
 */
export function LoginForm() {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInAction, null);
  const [email, setEmail] = useState("");
  const [from, setFrom] = useState("");
  const [notice, setNotice] = useState<string | null>(null);
  const [signedIn, setSignedIn] = useState(false);
  // message and email arrive as query parameters once: shown, then tidied from the address bar.
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    /* eslint-disable react-hooks/set-state-in-effect -- the prerendered page learns its query only in the browser */
    setFrom(text(params.get("from"), 500));
    setNotice(loginNotice(params.get("message")));
    if (params.has("email")) setEmail(text(params.get("email"), 254));
    /* eslint-enable react-hooks/set-state-in-effect */
    const controller = new AbortController();
    hasBrowserSession(controller.signal)
      .then(setSignedIn)
      .catch(() => {});
    if (params.has("message") || params.has("email")) {
      params.delete("message");
      params.delete("email");
      const query = params.toString();
      window.history.replaceState(null, "", `${window.location.pathname}${query ? `?${query}` : ""}`);
    }
    return () => controller.abort();
  }, []);

  return (
    <form action={action} noValidate>
      {notice && <Alert tone="success">{notice}</Alert>}
      {state && !state.ok && <Alert tone="error">{state.message}</Alert>}
      {state && !state.ok && state.code === "EMAIL_NOT_CONFIRMED" && (
        <p className={styles.note}>
          <Link href={`/verify-email?${new URLSearchParams({ email })}`}>Send the verification email again</Link>
        </p>
      )}
      <input type="hidden" name="from" value={from} />
      <Field
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Field label="Password" name="password" type="password" autoComplete="current-password" required />
      <p className={styles.aside}>
        <Link href="/forgot-password">Forgot your password?</Link>
      </p>
      <button type="submit" className="button button-primary button-block" disabled={pending}>
        {pending ? "Signing you in..." : "Let's Go!"}
      </button>
      <AuthFooter>
        New here? <Link href="/register?clear=true">Create an account</Link>
        {signedIn && (
          <>
            {" · "}
            <Link href="/signout">Sign out</Link>
          </>
        )}
      </AuthFooter>
    </form>
  );
}
