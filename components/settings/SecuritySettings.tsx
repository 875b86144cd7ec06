"use client";

import { useCallback, useEffect, useState, type FormEvent } from "react";
import { useWatch } from "react-hook-form";
import { PasswordStrength } from "@/components/auth/PasswordStrength";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { Field } from "@/components/ui/Field";
import { normalizeEmail } from "@/lib/auth/rules";
import { changePassword, endSession, fetchSessions, requestEmailChange, type SessionSummary } from "@/lib/auth/client/api";
import { ApiError } from "@/lib/transport/client";
import styles from "./settings.module.css";

type Notice = { tone: "error" | "success"; text: string } | null;

// The checks (the server's schemas) load on the first submit, so the page's first paint ships no zod.
const loadPasswordSchema = () => import("@/lib/auth/schemas").then((schemas) => schemas.changePasswordFormSchema);
const loadEmailSchema = () => import("@/lib/auth/schemas").then((schemas) => schemas.changeEmailSchema);

const EMPTY_PASSWORDS = { currentPassword: "", newPassword: "", confirmPassword: "" };

function ChangePassword() {
  const [notice, setNotice] = useState<Notice>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useZodForm(loadPasswordSchema, EMPTY_PASSWORDS, "on-submit");
  const next = useWatch({ control, name: "newPassword" });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    setNotice(null);
    return handleSubmit(async ({ currentPassword, newPassword }) => {
      try {
        await changePassword(currentPassword, newPassword);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        if (error.code === "INVALID_PASSWORD") setError("currentPassword", { message: error.message }, { shouldFocus: true });
        else setNotice({ tone: "error", text: error.message });
        return;
      }
      reset(EMPTY_PASSWORDS);
      setNotice({ tone: "success", text: "Your password was changed. Every other session has been signed out." });
      window.dispatchEvent(new Event("sessions-changed"));
    })(event);
  };

  return (
    <section className={styles.box} aria-labelledby="change-password-title">
      <h2 id="change-password-title">Change password</h2>
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
      <form onSubmit={submit} noValidate>
        <Field
          label="Current password"
          type="password"
          autoComplete="current-password"
          error={errors.currentPassword?.message}
          {...register("currentPassword")}
        />
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          error={errors.newPassword?.message}
          hint={<PasswordStrength password={next} checklist />}
          {...register("newPassword")}
        />
        <Field
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register("confirmPassword")}
        />
        <button type="submit" className="button button-primary" disabled={isSubmitting}>
          {isSubmitting ? "Changing..." : "Change password"}
        </button>
      </form>
    </section>
  );
}

function ChangeEmail({ email }: { email: string }) {
  const [notice, setNotice] = useState<Notice>(null);
  const {
    register,
    handleSubmit,
    resetField,
    setError,
    formState: { errors, isSubmitting },
  } = useZodForm(loadEmailSchema, { newEmail: "", password: "" }, "on-submit");

  const submit = (event: FormEvent<HTMLFormElement>) => {
    setNotice(null);
    return handleSubmit(async ({ newEmail, password }) => {
      // Normalized by the checks; by hand only when they could not load (the server then checks the same way).
      const address = normalizeEmail(newEmail);
      try {
        await requestEmailChange(password, address);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        if (error.code === "INVALID_PASSWORD") setError("password", { message: error.message }, { shouldFocus: true });
        else if (error.code === "EMAIL_EXISTS" || error.code === "VALIDATION_ERROR")
          setError("newEmail", { message: error.message }, { shouldFocus: true });
        else setNotice({ tone: "error", text: error.message });
        return;
      }
      resetField("password");
      setNotice({
        tone: "success",
        text: `We sent a link to ${address}. Your email changes when you open it. Until then you sign in with ${email}.`,
      });
    })(event);
  };

  return (
    <section className={styles.box} aria-labelledby="change-email-title">
      <h2 id="change-email-title">Change email</h2>
      <p className="muted">
        You sign in with <strong>{email}</strong>.
      </p>
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
      <form onSubmit={submit} noValidate>
        <Field label="New email" type="email" autoComplete="email" error={errors.newEmail?.message} {...register("newEmail")} />
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register("password")}
        />
        <button type="submit" className="button button-primary" disabled={isSubmitting}>
          {isSubmitting ? "Sending..." : "Send confirmation link"}
        </button>
      </form>
    </section>
  );
}

const LOAD_FAILED = "We could not load your sessions.";

const when = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });

function Sessions() {
  const [items, setItems] = useState<SessionSummary[] | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);

  useEffect(() => {
    let current = true;
    fetchSessions().then(
      (sessions) => current && setItems(sessions),
      (error: unknown) => current && setNotice({ tone: "error", text: error instanceof ApiError ? error.message : LOAD_FAILED }),
    );
    return () => {
      current = false;
    };
  }, [version]);

  useEffect(() => {
    window.addEventListener("sessions-changed", reload);
    return () => window.removeEventListener("sessions-changed", reload);
  }, [reload]);

  const end = async (id: string | null) => {
    setBusy(id ?? "others");
    try {
      await endSession(id);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return setNotice({ tone: "error", text: error.message });
    } finally {
      setBusy(null);
    }
    setNotice({ tone: "success", text: id ? "That session was signed out." : "Every other session was signed out." });
    reload();
  };

  const others = items?.filter((item) => !item.current) ?? [];
  return (
    <section className={styles.box} aria-labelledby="sessions-title">
      <h2 id="sessions-title">Where you are signed in</h2>
      <p className="muted">Places are not shown: we do not look up where an address is.</p>
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
      {items === null ? (
        <p className="muted">Loading your sessions...</p>
      ) : (
        <ul className={styles.rows} aria-label="Active sessions">
          {items.map((item) => (
            <li key={item.id} className={styles.row}>
              <div>
                <strong>{item.device}</strong>
                {item.current && <span className={styles.tag}> This device</span>}
                <div className={`muted ${styles.small}`}>
                  Signed in {when.format(new Date(item.createdAt))} · Last seen {when.format(new Date(item.lastSeenAt))}
                </div>
              </div>
              {!item.current && (
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={() => end(item.id)}
                  disabled={busy !== null}
                  aria-label={`Sign out ${item.device}, last seen ${when.format(new Date(item.lastSeenAt))}`}
                >
                  Sign out
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {others.length > 0 && (
        <button type="button" className="button button-secondary" onClick={() => end(null)} disabled={busy !== null}>
          Sign out everywhere else
        </button>
      )}
    </section>
  );
}

export function SecuritySettings({ email }: { email: string }) {
  return (
    <>
      <ChangePassword />
      <ChangeEmail email={email} />
      <Sessions />
    </>
  );
}
