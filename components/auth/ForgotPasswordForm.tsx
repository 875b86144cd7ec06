"use client";

import Link from "next/link";
import { useState } from "react";
import { forgotPasswordAction } from "@/app/(auth)/actions";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { Field } from "@/components/ui/Field";
import { AuthFooter } from "@/components/ui/AuthCard";
import { reach } from "@/lib/transport/actions";

// The schema (and zod) load on the first submit, not with the page.
const loadSchema = () => import("@/lib/auth/schemas").then((schemas) => schemas.forgotPasswordFormSchema);

export function ForgotPasswordForm() {
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useZodForm(loadSchema, { email: "" }, "on-submit");

  const submit = handleSubmit(async ({ email }) => {
    setFailure(null);
    const result = await reach(() => forgotPasswordAction(email));
    if (result.ok) setSent(result.message);
    else setFailure(result.message);
  });

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
      <Field label="Email" type="email" autoComplete="email" error={errors.email?.message} {...register("email")} />
      <button type="submit" className="button button-primary button-block" disabled={isSubmitting}>
        {isSubmitting ? "Sending..." : "Send Reset Link"}
      </button>
      <AuthFooter>
        Remembered it? <Link href="/login">Sign in</Link>
      </AuthFooter>
    </form>
  );
}
