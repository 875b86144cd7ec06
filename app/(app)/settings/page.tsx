import type { Metadata } from "next";
import Link from "next/link";
import { navLinks } from "@/lib/routes";
import { SETTINGS_SECTIONS } from "@/lib/settings/sections";
import styles from "./page.module.css";

export const metadata: Metadata = { title: "Settings" };

const TRUST_LINKS = navLinks("footer");

/**
 * The overview: every section with one line on what it holds. The sections are not prefetched:
 * each is rendered per request, and ten prefetches are twenty requests as the page loads (CoupleCard's rule).
 */
export default function SettingsPage() {
  return (
    <main id="main">
      <h1>Settings</h1>
      <ul className={styles.overview}>
        {SETTINGS_SECTIONS.map((section) => (
          <li key={section.href}>
            <Link href={section.href} prefetch={false}>
              <span className={styles.label}>{section.label}</span>
              <span className={styles.summary}>{section.summary}</span>
            </Link>
          </li>
        ))}
      </ul>
      <p className={styles.about}>
        About Two of Us:{" "}
        {TRUST_LINKS.map((link, index) => (
          <span key={link.href}>
            {index > 0 && ", "}
            <Link href={link.href} className="inline-target">
              {link.label}
            </Link>
          </span>
        ))}
        .
      </p>
    </main>
  );
}
