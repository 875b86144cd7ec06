"use client";

import { useState, type FormEvent } from "react";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { Field } from "@/components/ui/Field";
import { DELETE_CONFIRMATION_WORD, type CoupleOnDeletion } from "@/lib/account/rules";
import { ACCOUNT_DELETED_NOTICE } from "@/lib/auth/login-notices";
import { forgetThisDevice } from "@/lib/pwa/client";
import { deleteAccount } from "@/lib/account/client/api";
import { ApiError, leavePage } from "@/lib/transport/client";
import styles from "./settings.module.css";

// The checks load on the first submit, so the page's first paint ships no zod.
const loadSchema = () => import("@/lib/account/schemas").then((schemas) => schemas.deleteAccountFormSchema);

/** 'Download my data' and 'Delete my account' (what happens first, then the password and DELETE). */
export function DataSettings({ couple }: { couple: CoupleOnDeletion }) {
  const [formError, setFormError] = useState<string | null>(null);
  /** The account is gone and the page is being left: it stays busy. */
  const [leaving, setLeaving] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useZodForm(loadSchema, { password: "", typed: "" }, "on-submit");
  const pending = isSubmitting || leaving;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    setFormError(null);
    return handleSubmit(async ({ password }) => {
      try {
        await deleteAccount(password);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        if (error.code === "INVALID_PASSWORD") setError("password", { message: error.message }, { shouldFocus: true });
        else setFormError(error.message);
        return;
      }
      setLeaving(true);
      // Deleting clears what this browser kept, as signing out does (forgetThisDevice).
      await forgetThisDevice().catch(() => undefined);
      // The account and its sessions are gone: a full load leaves every cached page behind (and no
      // call still out, answered 401 now, sends the page to /signout instead).
      leavePage(`${window.location.origin}/login?${new URLSearchParams({ message: ACCOUNT_DELETED_NOTICE })}`);
    })(event);
  };

  return (
    <>
      <section className={styles.box} aria-labelledby="download-title">
        <h2 id="download-title">Download my data</h2>
        <p>
          A JSON file with everything we store about you and your couple: profile, couple, place, posts, replies, reactions, notifications,
          sessions and the addresses of your photos. It never holds your password or any secret link.
        </p>
        <a className="button button-secondary" href="/api/account/export" download>
          Download my data
        </a>
      </section>
      <section className={`${styles.box} ${styles.danger}`} aria-labelledby="delete-title">
        <h2 id="delete-title">Delete my account</h2>
        <p>This cannot be undone. When you delete your account:</p>
        <ul>
          <li>
            Your profile, your sessions, your notifications, your reactions and your photos are erased, and the photos are removed from
            storage.
          </li>
          <li>Your posts and replies stay in the forum, signed &quot;Deleted member&quot;.</li>
          {couple === "none" ? null : couple === "with-partner" ? (
            <li>
              Your partner keeps your couple profile on their own. They can invite a partner again, and the couple&apos;s badge goes back to
              &apos;Beta Member&apos;.
            </li>
          ) : (
            <li>
              You are the only partner, so your couple profile and its photos are deleted too. Your couple&apos;s posts and replies stay,
              signed &quot;Deleted member&quot;, with the replies other couples wrote to them.
            </li>
          )}
          <li>Your e-mail address can be used to register again.</li>
        </ul>
        <form onSubmit={submit} noValidate>
          {formError && <Alert tone="error">{formError}</Alert>}
          <Field
            label="Password"
            type="password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...register("password")}
          />
          <Field
            label={`Type ${DELETE_CONFIRMATION_WORD} to confirm`}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            error={errors.typed?.message}
            {...register("typed")}
          />
          <button type="submit" className="button button-danger" disabled={pending}>
            {pending ? "Deleting..." : "Delete my account"}
          </button>
        </form>
      </section>
    </>
  );
}
