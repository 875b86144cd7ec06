"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { resetPasswordAction } from "@/app/(auth)/actions";
import { Alert } from "@/components/ui/Alert";
import { Field } from "@/components/ui/Field";
import { PASSWORD_UPDATED_NOTICE } from "@/lib/auth/login-notices";
import { AuthFooter } from "@/components/ui/AuthCard";

export function ResetPasswordForm({ token }: { token: string }) {
  const router = useRouter();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<{ password?: string; confirm?: string; form?: string }>({});
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The schema (and zod) load on the first submit, not with the page.
    const { resetPasswordSchema } = await import("@/lib/auth/schemas");
    const parsed = resetPasswordSchema.safeParse(password);
    if (!parsed.success) return setErrors({ password: parsed.error.issues[0]!.message });
    if (password !== confirm) return setErrors({ confirm: "Passwords do not match. Please try again." });
    setErrors({});
    setPending(true);
    const result = await resetPasswordAction(token, password);
    setPending(false);
    if (result.ok) {
      router.replace(`/login?${new URLSearchParams({ message: PASSWORD_UPDATED_NOTICE })}`);
      return;
    }
    setErrors({ form: result.message });
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
    <form onSubmit={submit} noValidate>
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      <Field
        label="New password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errors.password}
      />
      <Field
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        error={errors.confirm}
      />
      <button type="submit" className="button button-primary button-block" disabled={pending}>
        {pending ? "Updating..." : "Reset Password"}
      </button>
      {errors.form && (
        <AuthFooter>
          <Link href="/forgot-password">Request a new link</Link>
        </AuthFooter>
      )}
    </form>
  );
}
