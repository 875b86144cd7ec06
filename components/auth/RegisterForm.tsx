"use client";

import Link from "next/link";
import { AgreeToTerms } from "./AgreeToTerms";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { registerAction } from "@/app/(auth)/actions";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { Field } from "@/components/ui/Field";
import { clearRegistrationProgress } from "@/lib/registration/client-storage";
import type { RegistrationForm as Values } from "@/lib/registration/schemas";
import { DateOfBirthField } from "./DateOfBirthField";
import { NewPasswordFields } from "./NewPasswordFields";
import { AuthFooter } from "@/components/ui/AuthCard";
import { reach } from "@/lib/transport/actions";

const EMPTY: Values = { email: "", password: "", confirmPassword: "", firstName: "", lastName: "", dateOfBirth: "" };

const loadSchema = () => import("@/lib/registration/schemas").then((schemas) => schemas.registrationFormSchema);

export function RegisterForm() {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useZodForm(loadSchema, EMPTY);
  const {
    register,
    handleSubmit,
    setServerErrors,
    formState: { errors, isSubmitting },
  } = form;

  // Opening /register always starts over.
  useEffect(() => clearRegistrationProgress(), []);
  // An emptied invitation link (`?invite=`) is a damaged one, which its page says: middleware.ts
  // sends every other invitation there, but Next's route conditions ignore an empty value.
  useEffect(() => {
    if (new URLSearchParams(window.location.search).has("invite")) router.replace("/invitation/accept?invite=");
  }, [router]);

  const onValid = async (values: Values) => {
    setFormError(null);
    const { confirmPassword: _confirm, ...payload } = values;
    const result = await reach(() => registerAction(payload));
    if (result.ok) {
      clearRegistrationProgress();
      router.push(`/verify-email?${new URLSearchParams({ email: result.email, registered: "1", name: values.firstName })}`);
      return;
    }
    setServerErrors(result.fieldErrors ?? {});
    setFormError(result.message);
  };

  return (
    <form noValidate onSubmit={handleSubmit(onValid, () => setFormError("Please fill in all required fields correctly."))}>
      {formError && <Alert tone="error">{formError}</Alert>}
      <div className="field-row">
        <Field label="First name" autoComplete="given-name" error={errors.firstName?.message} {...register("firstName")} />
        <Field label="Last name" autoComplete="family-name" error={errors.lastName?.message} {...register("lastName")} />
      </div>
      <Field label="Email" type="email" autoComplete="email" error={errors.email?.message} {...register("email")} />
      <NewPasswordFields form={form} confirmLabel="Confirm password" />
      <DateOfBirthField label="Date of birth" error={errors.dateOfBirth?.message} {...register("dateOfBirth")} />
      <AgreeToTerms />
      <button type="submit" className="button button-primary button-block" disabled={isSubmitting}>
        {isSubmitting ? "Creating your account..." : "Create Account"}
      </button>
      <AuthFooter>
        Already have an account? <Link href="/login">Sign in</Link>
      </AuthFooter>
    </form>
  );
}
