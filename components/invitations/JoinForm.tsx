"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { acceptInvitationAction } from "@/app/invitation/accept/actions";
import { useZodForm } from "@/components/forms/useZodForm";
import { DateOfBirthField } from "@/components/auth/DateOfBirthField";
import { NewPasswordFields } from "@/components/auth/NewPasswordFields";
import { Alert } from "@/components/ui/Alert";
import { MESSAGES } from "@/lib/invitations/rules";
import type { JoinForm as Values } from "@/lib/invitations/schemas";
import { clearRegistrationProgress, rememberAccount } from "@/lib/registration/client-storage";
import { AgreeToTerms } from "@/components/auth/AgreeToTerms";
import styles from "./InvitationJoin.module.css";
import { reach } from "@/lib/transport/actions";

const EMPTY: Values = { password: "", confirmPassword: "", dateOfBirth: "" };
const SIGN_IN_NOTICE = "Registration successful! Please login to complete your profile setup.";

/**
 * Partner B's form: the e-mail is the invited address and the names come from the invitation,
 * so only a password and a birth date are asked for. From the e-mailed link, success signs the
 * new account in and continues on /onboarding (step 1); from the shareable link, the account
 * verifies its e-mail first, as after registration. Either replaces this page in the history.
 * When the address has an account already, a sign-in link comes back to this invitation, where
 * the signed-in account joins with one button.
 */
const loadSchema = () => import("@/lib/invitations/schemas").then((schemas) => schemas.joinFormSchema);

export function JoinForm({ token, email, firstName }: { token: string; email: string; firstName: string }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const [signInHref, setSignInHref] = useState<string | null>(null);
  // Stays busy after success, while the next page loads.
  const [joined, setJoined] = useState(false);
  const form = useZodForm(loadSchema, EMPTY);
  const {
    register,
    handleSubmit,
    setServerErrors,
    formState: { errors, isSubmitting },
  } = form;

  // Joining starts a registration of its own: progress saved by an earlier one goes.
  useEffect(() => clearRegistrationProgress(), []);

  const onValid = async ({ password, dateOfBirth }: Values) => {
    setFormError(null);
    setSignInHref(null);
    const result = await reach(() => acceptInvitationAction(token, { password, dateOfBirth }), MESSAGES.acceptFailed);
    if (!result.ok) {
      setServerErrors(result.fieldErrors ?? {});
      setFormError(result.message);
      if (result.code === "EMAIL_EXISTS") {
        const here = `${window.location.pathname}${window.location.search}`;
        setSignInHref(`/login?${new URLSearchParams({ from: here, email })}`);
      }
      return;
    }
    setJoined(true);
    if (result.verificationRequired) {
      router.replace(`/verify-email?${new URLSearchParams({ email, registered: "1", name: firstName })}`);
      return;
    }
    rememberAccount(result);
    if (result.signedIn) router.replace("/onboarding");
    else router.replace(`/login?${new URLSearchParams({ message: SIGN_IN_NOTICE, email })}`);
  };

  return (
    <form noValidate onSubmit={handleSubmit(onValid)}>
      {formError && (
        <Alert tone="error">
          {formError}
          {signInHref && (
            <>
              {" "}
              <Link href={signInHref}>Sign in to join</Link>
            </>
          )}
        </Alert>
      )}
      <p className={styles.email}>
        You&apos;ll sign in with <strong>{email}</strong>
      </p>
      {/* Lets password managers file the new password under the right address. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <NewPasswordFields form={form} confirmLabel="Confirm Password" checklist />
      <DateOfBirthField label="Date of Birth" error={errors.dateOfBirth?.message} {...register("dateOfBirth")} />
      <AgreeToTerms />
      <button type="submit" className="button button-primary button-block" disabled={isSubmitting || joined}>
        {isSubmitting || joined ? "Joining..." : "Join the Adventure!"}
      </button>
    </form>
  );
}
