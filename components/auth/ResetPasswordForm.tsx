"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { resetPasswordAction } from "@/app/(auth)/actions";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { Field } from "@/components/ui/Field";
import { PASSWORD_UPDATED_NOTICE } from "@/lib/auth/login-notices";
import { AuthFooter } from "@/components/ui/AuthCard";
import { reach } from "@/lib/transport/actions";

// The schema (and zod) load on the first submit, not with the page.
const loadSchema = () => import("@/lib/auth/schemas").then((schemas) => schemas.resetPasswordFormSchema);

export function ResetPasswordForm({ token }: { token: string }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useZodForm(loadSchema, { password: "", confirm: "" }, "on-submit");

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    // Every submit starts without the last answer's message, a refused one included.
    setFormError(null);
    return handleSubmit(async ({ password }) => {
      const result = await reach(() => resetPasswordAction(token, password));
      if (result.ok) {
        router.replace(`/login?${new URLSearchParams({ message: PASSWORD_UPDATED_NOTICE })}`);
        return;
      }
      setFormError(result.message);
    })(event);
  };

  if (!token) {
    return (
      <>
        <Alert tone="error">This password reset link is invalid or has expired. Please request a new one.</Alert>
        <AuthFooter>
          <Link href="/forgot-password">Request a new link</Link>
        </AuthFooter>
      </>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate>
      {formError && <Alert tone="error">{formError}</Alert>}
      <Field label="New password" type="password" autoComplete="new-password" error={errors.password?.message} {...register("password")} />
      <Field
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        error={errors.confirm?.message}
        {...register("confirm")}
      />
      <button type="submit" className="button button-primary button-block" disabled={isSubmitting}>
        {isSubmitting ? "Updating..." : "Reset Password"}
      </button>
      {formError && (
        <AuthFooter>
          <Link href="/forgot-password">Request a new link</Link>
        </AuthFooter>
      )}
    </form>
  );
}
