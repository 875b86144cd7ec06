"use client";

import { useState } from "react";
import { verifyEmailAction } from "@/app/(auth)/actions";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { FormActions } from "@/components/ui/FormActions";
import type { VerifyPasswordForm } from "@/lib/auth/schemas";
import { reach } from "@/lib/transport/actions";
import { NewPasswordFields } from "./NewPasswordFields";

// The schema (and zod) load on the first check, not with the page.
const loadSchema = () => import("@/lib/auth/schemas").then((schemas) => schemas.verifyPasswordFormSchema);

const EMPTY: VerifyPasswordForm = { password: "", confirmPassword: "" };

/**
 * The verification link of an account made through an invitation's shareable link (the call
 * answered PASSWORD_REQUIRED): whoever held that link chose its password, so the mailbox's owner
 * confirms the address by choosing the one they will sign in with, and the earlier one stops working.
 */
export function VerifyWithPassword({ token, email, onVerified }: { token: string; email: string; onVerified: () => void }) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useZodForm(loadSchema, EMPTY);
  const {
    handleSubmit,
    formState: { isSubmitting },
  } = form;

  const onValid = async ({ password }: VerifyPasswordForm) => {
    setFormError(null);
    const result = await reach(() => verifyEmailAction(token, email, password));
    if (!result.ok) return setFormError(result.message);
    onVerified();
  };

  return (
    <form noValidate onSubmit={handleSubmit(onValid)}>
      <h2>Choose your password</h2>
      <p>
        Your account was made with an invitation link your partner shared. Choose the password you will sign in with to confirm{" "}
        <strong>{email || "your email address"}</strong>; any password chosen before stops working.
      </p>
      {formError && <Alert tone="error">{formError}</Alert>}
      {/* Lets password managers file the new password under the right address. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <NewPasswordFields form={form} confirmLabel="Confirm Password" checklist />
      <FormActions label="Confirm my email" busyLabel="Confirming..." busy={isSubmitting} />
    </form>
  );
}
