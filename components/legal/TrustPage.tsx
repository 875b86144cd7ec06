import Link from "next/link";
import type { ReactNode } from "react";
import styles from "./TrustPage.module.css";

/** Bumped with every change of substance to a trust page: members see when it last changed. */
export const TRUST_PAGES_UPDATED = "26 November 2026";

/**
 * A trust page (terms, privacy notice, community guidelines): public, the same for visitors and
 * members, readable without the app around it. Prerendered: it reads nothing from the request.
 */
export function TrustPage({ title, lead, children }: { title: string; lead: string; children: ReactNode }) {
  return (
    <>
      <header className={styles.header}>
        <Link href="/" className={styles.brand}>
          Two of Us
        </Link>
      </header>
      <main id="main" className={`page ${styles.page}`}>
        <h1>{title}</h1>
        <p className="page-lead">{lead}</p>
        <p className={styles.updated}>Last updated {TRUST_PAGES_UPDATED}</p>
        {children}
      </main>
    </>
  );
}
