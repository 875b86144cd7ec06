"use client";

import { useCallback, useEffect, useState, type FormEvent } from "react";
import { PasswordStrength } from "@/components/auth/PasswordStrength";
import { Alert } from "@/components/ui/Alert";
import { Field } from "@/components/ui/Field";
import { normalizeEmail } from "@/lib/auth/rules";
import { changePassword, endSession, fetchSessions, requestEmailChange, type SessionSummary } from "@/lib/auth/client/api";
import { ApiError } from "@/lib/http/client";
import { loadChecks } from "./loadChecks";
import styles from "./settings.module.css";

type Notice = { tone: "error" | "success"; text: string } | null;

function ChangePassword() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<{ current?: string; next?: string; confirm?: string }>({});
  const [notice, setNotice] = useState<Notice>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: typeof errors = {};
    if (!current) found.current = "Please enter your current password";
    const rule = (await loadChecks(() => import("@/lib/auth/schemas")))?.registrationPasswordSchema.safeParse(next);
    if (rule && !rule.success) found.next = rule.error.issues[0]!.message;
    else if (next !== confirm) found.confirm = "Passwords do not match. Please try again.";
    setErrors(found);
    setNotice(null);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    try {
      await changePassword(current, next);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === "INVALID_PASSWORD") setErrors({ current: error.message });
      else setNotice({ tone: "error", text: error.message });
      return;
    } finally {
      setPending(false);
    }
    setCurrent("");
    setNext("");
    setConfirm("");
    setNotice({ tone: "success", text: "Your password was changed. Every other session has been signed out." });
    window.dispatchEvent(new Event("sessions-changed"));
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
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          error={errors.current}
        />
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          value={next}
          onChange={(e) => setNext(e.target.value)}
          error={errors.next}
          hint={<PasswordStrength password={next} checklist />}
        />
        <Field
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          error={errors.confirm}
        />
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? "Changing..." : "Change password"}
        </button>
      </form>
    </section>
  );
}

function ChangeEmail({ email }: { email: string }) {
  const [newEmail, setNewEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<{ newEmail?: string; password?: string }>({});
  const [notice, setNotice] = useState<Notice>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: typeof errors = {};
    const parsed = (await loadChecks(() => import("@/lib/auth/schemas")))?.emailSchema.safeParse(newEmail);
    if (parsed && !parsed.success) found.newEmail = parsed.error.issues[0]!.message;
    if (!password) found.password = "Please enter your password";
    setErrors(found);
    setNotice(null);
    if (Object.keys(found).length > 0 || (parsed && !parsed.success)) return;
    // Unchecked here only when the checks could not load: the server then checks the same way.
    const address = parsed?.success ? parsed.data : normalizeEmail(newEmail);
    setPending(true);
    try {
      await requestEmailChange(password, address);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === "INVALID_PASSWORD") setErrors({ password: error.message });
      else if (error.code === "EMAIL_EXISTS" || error.code === "VALIDATION_ERROR") setErrors({ newEmail: error.message });
      else setNotice({ tone: "error", text: error.message });
      return;
    } finally {
      setPending(false);
    }
    setPassword("");
    setNotice({
      tone: "success",
      text: `We sent a link to ${address}. Your email changes when you open it. Until then you sign in with ${email}.`,
    });
  };

  return (
    <section className={styles.box} aria-labelledby="change-email-title">
      <h2 id="change-email-title">Change email</h2>
      <p className="muted">
        You sign in with <strong>{email}</strong>.
      </p>
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
      <form onSubmit={submit} noValidate>
        <Field
          label="New email"
          type="email"
          autoComplete="email"
          value={newEmail}
          onChange={(e) => setNewEmail(e.target.value)}
          error={errors.newEmail}
        />
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
        />
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? "Sending..." : "Send confirmation link"}
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
