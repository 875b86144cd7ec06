"use client";

import { useId, useState } from "react";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { appealSuspension } from "@/lib/safety/client/api";

const loadSchema = () => import("@/lib/safety/moderation-schemas").then((schemas) => schemas.suspendedAppealSchema);

/** A suspended couple's partner appeals, signed out: their e-mail and password prove who they are. */
export function SuspendedAppealForm() {
  const id = useId();
  const [result, setResult] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useZodForm(loadSchema, { email: "", password: "", body: "" }, "on-submit");
  const submit = handleSubmit(async (values) => {
    setResult(null);
    try {
      await appealSuspension(values);
      setResult({ tone: "success", text: "Your appeal is with our moderators. We will e-mail you their decision." });
    } catch (failure) {
      setResult({ tone: "error", text: failure instanceof Error ? failure.message : "Could not send your appeal. Please try again." });
    }
  });
  return (
    // POST, so a submit before the page is interactive never puts the password in the address.
    <form method="post" onSubmit={submit} noValidate aria-label="Appeal a suspension">
      {result && <Alert tone={result.tone}>{result.text}</Alert>}
      <div className="field">
        <label htmlFor={`${id}-email`}>E-mail address</label>
        <input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          {...register("email")}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? `${id}-email-error` : undefined}
        />
        {errors.email && (
          <span id={`${id}-email-error`} className="field-error">
            {errors.email.message}
          </span>
        )}
      </div>
      <div className="field">
        <label htmlFor={`${id}-password`}>Password</label>
        <input
          id={`${id}-password`}
          type="password"
          autoComplete="current-password"
          {...register("password")}
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={errors.password ? `${id}-password-error` : undefined}
        />
        {errors.password && (
          <span id={`${id}-password-error`} className="field-error">
            {errors.password.message}
          </span>
        )}
      </div>
      <div className="field">
        <label htmlFor={`${id}-body`}>Your appeal</label>
        <textarea
          id={`${id}-body`}
          rows={4}
          {...register("body")}
          aria-invalid={errors.body ? true : undefined}
          aria-describedby={errors.body ? `${id}-body-error` : undefined}
        />
        {errors.body && (
          <span id={`${id}-body-error`} className="field-error">
            {errors.body.message}
          </span>
        )}
      </div>
      <button type="submit" className="button button-primary" disabled={isSubmitting}>
        Send appeal
      </button>
    </form>
  );
}
