"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { signOutAction } from "@/app/(auth)/actions";
import { AuthPage } from "@/components/ui/AuthCard";
import { forgetThisDevice } from "@/lib/pwa/client";
import styles from "./SignOut.module.css";

/** /signout: forget everything this browser kept, end the session on the server, then /login. */
export function SignOut() {
  const router = useRouter();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // The theme is a device preference, not account data: it survives signing out.
    const theme = localStorage.getItem("theme");
    localStorage.clear();
    if (theme) localStorage.setItem("theme", theme);
    sessionStorage.clear();
    // The server ends this session (and the push subscription made under it) as this device forgets both.
    void Promise.all([signOutAction(), forgetThisDevice()])
      .catch(() => undefined)
      .finally(() => {
        router.replace("/login");
        router.refresh();
      });
  }, [router]);
  return (
    <AuthPage>
      <p role="status" className={styles.signingOut}>
        Signing out...
      </p>
    </AuthPage>
  );
}
