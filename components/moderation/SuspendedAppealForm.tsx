"use client";

import { useState } from "react";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { Field } from "@/components/ui/Field";
import { FieldFrame } from "@/components/ui/FieldFrame";
import { appealSuspension } from "@/lib/safety/client/api";

const loadSchema = () => import("@/lib/safety/moderation-schemas").then((schemas) => schemas.suspendedAppealSchema);

/** A suspended couple's partner appeals, signed out: their e-mail and password prove who they are. */
export function SuspendedAppealForm() {
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
      <Field label="E-mail address" type="email" autoComplete="email" error={errors.email?.message} {...register("email")} />
      <Field label="Password" type="password" autoComplete="current-password" error={errors.password?.message} {...register("password")} />
      <FieldFrame label="Your appeal" error={errors.body?.message}>
        {(control) => <textarea {...control} rows={4} {...register("body")} />}
      </FieldFrame>
      <button type="submit" className="button button-primary" disabled={isSubmitting}>
        Send appeal
      </button>
    </form>
  );
}
