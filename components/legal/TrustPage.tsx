import Link from "next/link";
import type { ReactNode } from "react";
import styles from "./TrustPage.module.css";

/** Bumped with every change of substance to a trust page: members see when it last changed. */
export const TRUST_PAGES_UPDATED = "26 November 2026";

type Props = {
  title: string;
  lead: string;
  /** Terms, privacy and guidelines say when they last changed; the about page is not a promise to date. */
  dated?: boolean;
  children: ReactNode;
};

/**
 * A trust page (terms, privacy notice, community guidelines, about): public, the same for visitors
 * and members, readable without the app around it. Prerendered: it reads nothing from the request.
 */
export function TrustPage({ title, lead, dated = true, children }: Props) {
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
        {dated && <p className={styles.updated}>Last updated {TRUST_PAGES_UPDATED}</p>}
        {children}
      </main>
    </>
  );
}
