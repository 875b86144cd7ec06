"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { resendVerificationAction, verifyEmailAction } from "@/app/(auth)/actions";
import { Alert } from "@/components/ui/Alert";
import { EMAIL_VERIFIED_NOTICE } from "@/lib/auth/login-notices";
import { AuthFooter, SUPPORT_EMAIL } from "@/components/ui/AuthCard";
import { reach } from "@/lib/transport/actions";
import { VerifyWithPassword } from "./VerifyWithPassword";

const COOLDOWN_SECONDS = 60;
const RATE_LIMITED_LOCK_SECONDS = 300;
const REDIRECT_DELAY_MS = 2000;

function remainingText(attempts: number): string {
  if (attempts <= 0) return "Maximum verification emails reached. Please wait 1 hour before trying again.";
  return `${attempts} verification email${attempts === 1 ? "" : "s"} remaining this hour`;
}

type VerifyState = { status: "working" } | { status: "password" } | { status: "done" } | { status: "failed"; message: string };

/**
 * Checking a link from the e-mail: posted from the page (never on GET, so mail scanners cannot use
 * it up). An account made through a shareable link is verified only with the password its
 * mailbox's owner chooses (PASSWORD_REQUIRED): the page then asks for it, so loading it verifies nothing.
 */
function VerifyToken({ token, email }: { token: string; email: string }) {
  const router = useRouter();
  const [state, setState] = useState<VerifyState>({ status: "working" });
  const started = useRef(false);
  const verified = useCallback(() => {
    setState({ status: "done" });
    setTimeout(() => router.push(`/login?${new URLSearchParams({ message: EMAIL_VERIFIED_NOTICE, email })}`), REDIRECT_DELAY_MS);
  }, [email, router]);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void reach(() => verifyEmailAction(token, email)).then((result) => {
      if (result.ok) return verified();
      setState(result.code === "PASSWORD_REQUIRED" ? { status: "password" } : { status: "failed", message: result.message });
    });
  }, [token, email, verified]);

  if (state.status === "working") return <p role="status">Verifying your email...</p>;
  if (state.status === "password") return <VerifyWithPassword token={token} email={email} onVerified={verified} />;
  if (state.status === "done") {
    return (
      <>
        <h2>Welcome</h2>
        <Alert tone="success">Email verified successfully! Redirecting to onboarding...</Alert>
        <Link className="button button-primary button-block" href="/onboarding">
          Start Your Adventure
        </Link>
      </>
    );
  }
  return (
    <>
      <Alert tone="error">{state.message}</Alert>
      <CheckInbox email={email} />
    </>
  );
}

/** 'Check Your Email', with a resend button that respects the cooldowns. */
function CheckInbox({ email, justRegistered = false }: { email: string; justRegistered?: boolean }) {
  const [waitUntil, setWaitUntil] = useState(() => (justRegistered ? Date.now() + COOLDOWN_SECONDS * 1000 : 0));
  const [now, setNow] = useState(() => Date.now());
  const [message, setMessage] = useState<{ tone: "success" | "error"; text: string; attempts?: number } | null>(null);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const secondsLeft = Math.max(0, Math.ceil((waitUntil - now) / 1000));

  const resend = async () => {
    setPending(true);
    const result = await reach(() => resendVerificationAction(email));
    setPending(false);
    if (result.ok) {
      setWaitUntil(Date.now() + COOLDOWN_SECONDS * 1000);
      setMessage({ tone: "success", text: "Verification email sent! Please check your inbox.", attempts: result.attemptsRemaining });
      return;
    }
    if (result.code === "RATE_LIMITED") setWaitUntil(Date.now() + RATE_LIMITED_LOCK_SECONDS * 1000);
    setMessage({ tone: "error", text: result.message, attempts: result.attemptsRemaining });
  };

  return (
    <>
      <h2>Check Your Email</h2>
      <p>
        We sent a verification link to <strong>{email || "your email address"}</strong>. Open it to activate your account.
      </p>
      {message && (
        <Alert tone={message.tone}>
          {message.text}
          {message.attempts !== undefined && message.text !== remainingText(message.attempts) && <> {remainingText(message.attempts)}</>}
        </Alert>
      )}
      <button
        type="button"
        className="button button-secondary button-block"
        onClick={resend}
        disabled={pending || secondsLeft > 0 || !email}
      >
        {pending ? "Sending..." : secondsLeft > 0 ? `Resend available in ${secondsLeft}s` : "Resend Verification Email"}
      </button>
      <AuthFooter>
        Wrong address? <Link href="/register?clear=true">try a different email address</Link>
        <br />
        Need help? <a href={`mailto:${SUPPORT_EMAIL}`}>Contact support</a>
      </AuthFooter>
    </>
  );
}

export function VerifyEmail({ token, email, notice }: { token: string | null; email: string; notice: string | null }) {
  return (
    <>
      {notice && <Alert tone="success">{notice}</Alert>}
      {token ? <VerifyToken token={token} email={email} /> : <CheckInbox email={email} justRegistered={notice !== null} />}
    </>
  );
}
