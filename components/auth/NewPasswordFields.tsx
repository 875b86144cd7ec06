"use client";

import { useWatch, type UseFormReturn } from "react-hook-form";
import { Field } from "@/components/ui/Field";
import { PasswordStrength } from "./PasswordStrength";

type NewPassword = { password: string; confirmPassword: string };

type Props<T extends NewPassword> = { form: UseFormReturn<T>; confirmLabel: string; checklist?: boolean };

/**
 * A new password with its strength meter (with `checklist`, every requirement ticked as it is
 * met) and its confirmation, checked again whenever the password changes.
 */
export function NewPasswordFields<T extends NewPassword>({ form, confirmLabel, checklist = false }: Props<T>) {
  // The forms differ in their other fields; these two are all this piece touches.
  const {
    register,
    control,
    formState: { errors },
  } = form as unknown as UseFormReturn<NewPassword>;
  const password = useWatch({ control, name: "password" });
  return (
    <>
      <Field
        label="Password"
        type="password"
        autoComplete="new-password"
        error={errors.password?.message}
        hint={<PasswordStrength password={password} checklist={checklist} />}
        {...register("password", { deps: ["confirmPassword"] })}
      />
      <Field
        label={confirmLabel}
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register("confirmPassword")}
      />
    </>
  );
}
