"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { signOutAction } from "@/app/(auth)/actions";
import { AuthPage } from "@/components/ui/AuthCard";
import { signOutThisDevice } from "@/lib/pwa/client";
import styles from "./SignOut.module.css";

/** /signout: forget everything this browser kept, end the session on the server, then /login. */
export function SignOut() {
  const router = useRouter();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // The server ends this session (and the push subscription made under it) as this device forgets
    // what it kept (forgetThisDevice: its storage at once, then the subscription and the caches),
    // each to its end whatever the other does; then sign-in.
    void signOutThisDevice(signOutAction).then(() => {
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
