import Link from "next/link";
import type { ReactNode } from "react";
import { ThemeToggle } from "@/components/layout/ThemeToggle";
import { requireSignedIn } from "@/lib/auth/current-session";
import styles from "./layout.module.css";

/**
 * Onboarding and invitation pages: signed in, no complete profile needed, a slim header. "Sign
 * out" is not prefetched: that would be two requests and a render on a phone's main thread at
 * every load, for a page nobody needs ready in advance. 'Your data and account' downloads or
 * deletes the account before the profile is complete.
 */
export default async function OnboardingLayout({ children }: { children: ReactNode }) {
  await requireSignedIn();
  return (
    <>
      <header className="navbar">
        <div className="navbar-inner">
          <span className="logo">Two of Us</span>
          <span className="beta-badge">Beta Access</span>
          <div className="nav-actions nav-actions-slim">
            <ThemeToggle />
            <Link href="/signout" className="nav-signout" prefetch={false}>
              Sign out
            </Link>
          </div>
        </div>
      </header>
      {children}
      <nav className={styles.account} aria-label="Your account">
        <Link href="/onboarding/account" prefetch={false}>
          Your data and account
        </Link>
      </nav>
    </>
  );
}
